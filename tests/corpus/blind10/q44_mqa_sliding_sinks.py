import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rope(x, pos, base=10000.0):
    d = x.size(-1)
    inv = 1.0 / base ** (torch.arange(0, d, 2).float() / d)
    freqs = torch.outer(pos.float(), inv)
    emb = torch.cat([freqs, freqs], -1)  # [T, d]
    return x * emb.cos() + rotate_half(x) * emb.sin()


def streaming_mask(T, window, n_sink):
    i = torch.arange(T)[:, None]
    j = torch.arange(T)[None, :]
    return (j <= i) & ((i - j < window) | (j < n_sink))  # True = attend


class MultiQueryAttention(nn.Module):
    def __init__(self, d=32, n_head=4, window=4, n_sink=2):
        super().__init__()
        self.n_head, self.hd, self.window, self.n_sink = n_head, d // n_head, window, n_sink
        self.q = nn.Linear(d, d, bias=False)
        self.kv = nn.Linear(d, 2 * self.hd, bias=False)  # one shared key/value head
        self.o = nn.Linear(d, d, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        pos = torch.arange(T)
        q = rope(self.q(x).view(B, T, self.n_head, self.hd).transpose(1, 2), pos)
        k, v = self.kv(x).unsqueeze(1).split(self.hd, dim=-1)  # [B, 1, T, hd]
        k = rope(k, pos)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(self.hd)  # broadcast over query heads
        scores = scores.masked_fill(~streaming_mask(T, self.window, self.n_sink), float("-inf"))
        y = scores.softmax(-1) @ v
        return self.o(y.transpose(1, 2).reshape(B, T, D))


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class StreamingLM(nn.Module):
    def __init__(self, vocab=64, d=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(nn.ModuleList([RMSNorm(d), MultiQueryAttention(d), RMSNorm(d),
                                                   nn.Sequential(nn.Linear(d, 3 * d), nn.SiLU(), nn.Linear(3 * d, d))])
                                    for _ in range(layers))
        self.norm = RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        x = self.emb(ids)
        for n1, attn, n2, mlp in self.blocks:
            x = x + attn(n1(x))
            x = x + mlp(n2(x))
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    return StreamingLM().eval(), (torch.randint(0, 64, (2, 14)),)
