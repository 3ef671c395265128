import math
import torch
import torch.nn as nn


class RelativePositionBias(nn.Module):
    def __init__(self, n_heads, max_distance=8):
        super().__init__()
        self.max_distance = max_distance
        self.bias = nn.Embedding(2 * max_distance + 1, n_heads)

    def forward(self, q_len, k_len):
        ctx = torch.arange(q_len)[:, None]
        mem = torch.arange(k_len)[None, :]
        rel = (mem - ctx).clamp(-self.max_distance, self.max_distance) + self.max_distance
        return self.bias(rel).permute(2, 0, 1).unsqueeze(0)


class RelAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dk = d_model // n_heads
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, position_bias, attention_mask):
        B, T, _ = x.shape
        shape = lambda t: t.view(B, T, self.h, self.dk).transpose(1, 2)
        q, k, v = shape(self.q(x)), shape(self.k(x)), shape(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dk) + position_bias
        blocked = attention_mask[:, None, None, :] == 0
        scores = scores.masked_fill(blocked, torch.finfo(scores.dtype).min)
        w = torch.softmax(scores, dim=-1)
        out = torch.matmul(w, v).transpose(1, 2).reshape(B, T, -1)
        return self.o(out)


class RelEncoder(nn.Module):
    def __init__(self, vocab=45, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.rel = RelativePositionBias(n_heads)
        self.attn = nn.ModuleList([RelAttention(d_model, n_heads) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))
                                 for _ in range(n_layers)])
        self.ln_a = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln_f = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids)
        bias = self.rel(input_ids.size(1), input_ids.size(1))
        for att, ff, la, lf in zip(self.attn, self.ff, self.ln_a, self.ln_f):
            x = x + att(la(x), bias, attention_mask)
            x = x + ff(lf(x))
        return x


def build():
    torch.manual_seed(0)
    model = RelEncoder().eval()
    input_ids = torch.tensor([[3, 17, 22, 9, 41, 5, 8, 2],
                              [3, 11, 30, 2, 0, 0, 0, 0],
                              [3, 6, 7, 19, 25, 2, 0, 0]])
    attention_mask = (input_ids != 0).to(torch.float32)
    return model, (input_ids, attention_mask)
