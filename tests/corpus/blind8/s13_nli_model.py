import torch
import torch.nn as nn
import torch.nn.functional as F


class BertEmbeddings(nn.Module):
    def __init__(self, vocab, hidden, max_pos=32, type_vocab=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.token_type_embeddings = nn.Embedding(type_vocab, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def forward(self, input_ids, token_type_ids):
        pos = torch.arange(input_ids.size(1), device=input_ids.device).expand_as(input_ids)
        e = self.word_embeddings(input_ids) + self.position_embeddings(pos) + self.token_type_embeddings(token_type_ids)
        return self.dropout(self.LayerNorm(e))


class BertLayer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.inter = nn.Linear(hidden, 4 * hidden)
        self.out = nn.Linear(4 * hidden, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, h, attention_mask):
        B, T, H = h.shape
        q, k, v = self.qkv(h).view(B, T, 3, self.heads, H // self.heads).permute(2, 0, 3, 1, 4)
        ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask[:, None, None, :].bool(),
                                             dropout_p=0.1 if self.training else 0.0)
        h = self.ln1(h + self.attn_out(ctx.transpose(1, 2).reshape(B, T, H)))
        return self.ln2(h + self.out(F.gelu(self.inter(h))))


class BertForSequencePair(nn.Module):
    def __init__(self, vocab=70, hidden=32, heads=4, layers=2, n_labels=3):
        super().__init__()
        self.embeddings = BertEmbeddings(vocab, hidden)
        self.layers = nn.ModuleList([BertLayer(hidden, heads) for _ in range(layers)])
        self.pooler = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, n_labels)

    def forward(self, input_ids, token_type_ids, attention_mask):
        h = self.embeddings(input_ids, token_type_ids)
        for layer in self.layers:
            h = layer(h, attention_mask)
        pooled = torch.tanh(self.pooler(h[:, 0]))
        return self.classifier(pooled)


def build():
    torch.manual_seed(0)
    model = BertForSequencePair().eval()
    input_ids = torch.tensor([[1, 12, 45, 3, 2, 33, 8, 2, 0, 0],
                              [1, 5, 2, 61, 27, 19, 2, 0, 0, 0]])
    token_type_ids = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1, 0, 0], [0, 0, 0, 1, 1, 1, 1, 0, 0, 0]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, token_type_ids, attention_mask)
