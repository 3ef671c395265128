import math
import torch
import torch.nn as nn


def subsequent_mask(size):
    attn_shape = (1, size, size)
    subsequent = torch.triu(torch.ones(attn_shape), diagonal=1).type(torch.uint8)
    return subsequent == 0


def attention(query, key, value, mask=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e-9)
    p_attn = scores.softmax(dim=-1)
    return torch.matmul(p_attn, value)


class MHA(nn.Module):
    def __init__(self, h, d_model):
        super().__init__()
        self.h, self.d_k = h, d_model // h
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])

    def forward(self, x, mask):
        nb = x.size(0)
        q, k, v = [l(x).view(nb, -1, self.h, self.d_k).transpose(1, 2) for l in self.linears[:3]]
        out = attention(q, k, v, mask.unsqueeze(1))
        out = out.transpose(1, 2).contiguous().view(nb, -1, self.h * self.d_k)
        return self.linears[3](out)


class TinyDecoder(nn.Module):
    def __init__(self, vocab=30, d_model=32, h=4, n=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(16, d_model)
        self.attn = nn.ModuleList([MHA(h, d_model) for _ in range(n)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model)) for _ in range(n)])
        self.norm_a = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n)])
        self.norm_f = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n)])
        self.proj = nn.Linear(d_model, vocab)

    def forward(self, tgt):
        mask = subsequent_mask(tgt.size(1))
        x = self.embed(tgt) * math.sqrt(32) + self.pos(torch.arange(tgt.size(1)))
        for a, f, na, nf in zip(self.attn, self.ff, self.norm_a, self.norm_f):
            x = x + a(na(x), mask)
            x = x + f(nf(x))
        return torch.log_softmax(self.proj(x), dim=-1)


def build():
    torch.manual_seed(0)
    model = TinyDecoder().eval()
    tgt = torch.randint(0, 30, (2, 7))
    return model, (tgt,)
