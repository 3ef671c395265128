import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features) * 0.1)
        self.lora_B = nn.Parameter(torch.randn(base.out_features, r) * 0.1)  # non-zero: adapter was trained
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


class SelfAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads, self.head_dim = heads, d // heads
        self.q = LoRALinear(nn.Linear(d, d))
        self.k = nn.Linear(d, d)
        self.v = LoRALinear(nn.Linear(d, d))
        self.o = nn.Linear(d, d)

    def forward(self, x, key_padding):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        v = self.v(x).view(B, T, self.heads, self.head_dim).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / self.head_dim
        scores = scores.masked_fill(key_padding[:, None, None, :], float("-inf"))
        probs = scores.softmax(-1)
        return self.o(torch.matmul(probs, v).transpose(1, 2).reshape(B, T, D))


class LoRAEncoder(nn.Module):
    def __init__(self, vocab=40, d=32, layers=2, n_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.attn = nn.ModuleList(SelfAttention(d) for _ in range(layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(layers))
        self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.cls = nn.Linear(d, n_labels)

    def forward(self, ids):
        pad = ids.eq(0)
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1)))[None]
        for attn, ff, n1, n2 in zip(self.attn, self.ff, self.n1, self.n2):
            x = n1(x + attn(x, pad))
            x = n2(x + ff(x))
        return self.cls(x[:, 0])


def build():
    torch.manual_seed(0)
    model = LoRAEncoder().eval()
    ids = torch.zeros(2, 10, dtype=torch.long)
    ids[0] = torch.randint(1, 40, (10,))
    ids[1, :6] = torch.randint(1, 40, (6,))
    return model, (ids,)
