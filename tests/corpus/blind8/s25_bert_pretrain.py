import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class BertSelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.num_attention_heads = heads
        self.attention_head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.dense = nn.Linear(hidden, hidden)
        self.LayerNorm = nn.LayerNorm(hidden, eps=1e-12)

    def transpose_for_scores(self, x):
        new_shape = x.size()[:-1] + (self.num_attention_heads, self.attention_head_size)
        return x.view(new_shape).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask):
        q = self.transpose_for_scores(self.query(hidden_states))
        k = self.transpose_for_scores(self.key(hidden_states))
        v = self.transpose_for_scores(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.attention_head_size)
        extended = attention_mask[:, None, None, :].to(scores.dtype) * -10000.0
        probs = nn.functional.softmax(scores + extended, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(ctx.size()[:-2] + (-1,))
        return self.LayerNorm(self.dense(ctx) + hidden_states)


class BertLayer(nn.Module):
    def __init__(self, hidden, heads, inter):
        super().__init__()
        self.attention = BertSelfAttention(hidden, heads)
        self.intermediate = nn.Linear(hidden, inter)
        self.output = nn.Linear(inter, hidden)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, h, attention_mask):
        h = self.attention(h, attention_mask)
        return self.ln(h + self.output(F.gelu(self.intermediate(h))))


class BertForMLM(nn.Module):
    def __init__(self, vocab=60, hidden=32, heads=4, inter=64, layers=2, max_pos=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.emb_ln = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList([BertLayer(hidden, heads, inter) for _ in range(layers)])
        self.mlm_head = nn.Linear(hidden, vocab)

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        h = self.emb_ln(self.word_embeddings(input_ids) + self.position_embeddings(pos))
        for layer in self.layers:
            h = layer(h, attention_mask)
        return self.mlm_head(h)


def build():
    torch.manual_seed(0)
    model = BertForMLM().eval()
    input_ids = torch.tensor([[2, 14, 3, 27, 9, 4, 0, 0],
                              [2, 33, 41, 5, 4, 0, 0, 0]])
    attention_mask = (input_ids != 0).long()
    return model, (input_ids, attention_mask)
