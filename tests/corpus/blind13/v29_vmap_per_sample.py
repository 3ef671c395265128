"""Attention pooling written for one sample and batched with torch.func.vmap.

`attend_one` handles a single (T, d) sequence and its length; vmap maps it over the batch.
Inside, the padding mask is built from the length with torch.where, since a vmapped function
cannot slice by a data-dependent length.
"""
import math

import torch
import torch.nn as nn
from torch.func import vmap


class SamplewiseEncoder(nn.Module):
    def __init__(self, n_feats=12, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.inp = nn.Linear(n_feats, d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d))
        self.pool_query = nn.Parameter(torch.randn(d) * 0.3)
        self.cls = nn.Linear(d, 4)

    def attend_one(self, x, length):
        T, D = x.shape
        real = torch.arange(T, device=x.device) < length                     # (T,)
        q, k, v = self.qkv(self.ln1(x)).view(T, 3, self.h, self.dh).permute(1, 2, 0, 3)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.dh)                     # (H, T, T)
        s = torch.where(real[None, None, :], s, torch.tensor(float("-inf")))
        x = x + self.o((s.softmax(-1) @ v).transpose(0, 1).reshape(T, D))
        x = x + self.ff(self.ln2(x))
        p = torch.where(real, x @ self.pool_query, torch.tensor(float("-inf")))
        return p.softmax(0) @ x

    def forward(self, feats, lengths):
        x = self.inp(feats)
        pooled = vmap(self.attend_one)(x, lengths)
        return self.cls(pooled)


def build():
    torch.manual_seed(0)
    model = SamplewiseEncoder().eval()
    feats = torch.randn(3, 10, 12)
    lengths = torch.tensor([10, 6, 3])
    return model, (feats, lengths)
