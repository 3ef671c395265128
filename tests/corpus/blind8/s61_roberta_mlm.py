import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def create_position_ids(input_ids, padding_idx):
    mask = input_ids.ne(padding_idx).int()
    incremental = torch.cumsum(mask, dim=1).type_as(mask) * mask
    return incremental.long() + padding_idx


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.head_size = hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)

    def forward(self, h, ext_mask):
        B, T, H = h.shape
        def split(t):
            return t.view(B, T, self.heads, self.head_size).permute(0, 2, 1, 3)
        q, k, v = split(self.query(h)), split(self.key(h)), split(self.value(h))
        scores = torch.matmul(q, k.transpose(-1, -2))
        scores = scores / math.sqrt(self.head_size) + ext_mask
        probs = F.softmax(scores, dim=-1)
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(B, T, H)


class Layer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.attention = SelfAttention(hidden, heads)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-5)
        self.inter = nn.Linear(hidden, 4 * hidden)
        self.out = nn.Linear(4 * hidden, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, h, ext_mask):
        h = self.ln1(h + self.attn_out(self.attention(h, ext_mask)))
        return self.ln2(h + self.out(F.gelu(self.inter(h))))


class RobertaLikeMLM(nn.Module):
    def __init__(self, vocab=64, hidden=32, heads=4, layers=2, max_pos=24, pad_token_id=1):
        super().__init__()
        self.pad_token_id = pad_token_id
        self.word_embeddings = nn.Embedding(vocab, hidden, padding_idx=pad_token_id)
        self.position_embeddings = nn.Embedding(max_pos, hidden, padding_idx=pad_token_id)
        self.emb_ln = nn.LayerNorm(hidden, eps=1e-5)
        self.layers = nn.ModuleList([Layer(hidden, heads) for _ in range(layers)])
        self.lm_dense = nn.Linear(hidden, hidden)
        self.lm_ln = nn.LayerNorm(hidden, eps=1e-5)
        self.decoder = nn.Linear(hidden, vocab)

    def forward(self, input_ids, attention_mask):
        pos = create_position_ids(input_ids, self.pad_token_id)
        h = self.emb_ln(self.word_embeddings(input_ids) + self.position_embeddings(pos))
        ext = (1.0 - attention_mask[:, None, None, :].to(h.dtype)) * -10000.0
        for layer in self.layers:
            h = layer(h, ext)
        return self.decoder(self.lm_ln(F.gelu(self.lm_dense(h))))


def build():
    torch.manual_seed(0)
    model = RobertaLikeMLM().eval()
    input_ids = torch.tensor([[0, 31, 4, 17, 50, 2, 1, 1, 1],
                              [0, 9, 44, 3, 12, 27, 8, 60, 2]])
    attention_mask = input_ids.ne(1).long()
    return model, (input_ids, attention_mask)
