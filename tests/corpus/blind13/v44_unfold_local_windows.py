"""Local (sliding-window) attention with overlapping windows gathered by unfold.

Each query reads the 2 * radius + 1 keys centred on it. Keys and values are padded by
`radius` on both ends of the sequence and unfolded into windows; the slots that fall on the
edge padding or on padded tokens are masked with the same unfold applied to a validity mask.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class UnfoldLocalAttention(nn.Module):
    def __init__(self, d=32, heads=4, radius=2):
        super().__init__()
        self.h, self.dh, self.r = heads, d // heads, radius
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, valid):
        B, T, D = x.shape
        w = 2 * self.r + 1
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k = F.pad(k, (0, 0, self.r, self.r)).unfold(1, w, 1)                # (B, T, D, w)
        v = F.pad(v, (0, 0, self.r, self.r)).unfold(1, w, 1)
        ok = F.pad(valid, (self.r, self.r), value=False).unfold(1, w, 1)    # (B, T, w)
        q = q.view(B, T, self.h, self.dh)
        k = k.view(B, T, self.h, self.dh, w)
        v = v.view(B, T, self.h, self.dh, w)
        s = torch.einsum("bthd,bthdw->bthw", q, k) / math.sqrt(self.dh)
        s = s.masked_fill(~ok[:, :, None, :], torch.finfo(s.dtype).min)
        out = torch.einsum("bthw,bthdw->bthd", s.softmax(-1), v)
        return self.o(out.reshape(B, T, D))


class LocalEncoder(nn.Module):
    def __init__(self, n_feats=10, d=32, n_layers=2):
        super().__init__()
        self.inp = nn.Linear(n_feats, d)
        self.attn = nn.ModuleList(UnfoldLocalAttention(d) for _ in range(n_layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d)) for _ in range(n_layers))
        self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.out = nn.Linear(d, 3)

    def forward(self, feats, valid):
        x = self.inp(feats)
        for attn, ff, n1, n2 in zip(self.attn, self.ff, self.n1, self.n2):
            x = x + attn(n1(x), valid)
            x = x + ff(n2(x))
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = LocalEncoder().eval()
    feats = torch.randn(2, 13, 10)
    valid = torch.ones(2, 13, dtype=torch.bool)
    valid[1, 9:] = False
    return model, (feats, valid)
