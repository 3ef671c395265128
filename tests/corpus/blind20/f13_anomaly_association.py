"""Anomaly Transformer (Xu et al., ICLR 2022) for multivariate time-series anomaly detection.

Each anomaly-attention layer computes two associations per time point: the learned series
association (softmax attention over the window) and a prior association, a Gaussian kernel over
|i - j| with a learned, per-position scale sigma_i, normalized over j. Anomalies are points whose
series association stays as local as the prior (small association discrepancy). The detection
criterion is softmax over the window of (-discrepancy), times the reconstruction error.
"""
import math

import torch
import torch.nn as nn


class AnomalyAttention(nn.Module):
    def __init__(self, dim, heads, win_size):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.sigma = nn.Linear(dim, heads)
        self.out = nn.Linear(dim, dim)
        idx = torch.arange(win_size, dtype=torch.float)
        self.register_buffer("distances", (idx[:, None] - idx[None, :]).abs())

    def forward(self, x):
        B, L, D = x.shape
        q = self.q(x).view(B, L, self.heads, self.dh)
        k = self.k(x).view(B, L, self.heads, self.dh)
        v = self.v(x).view(B, L, self.heads, self.dh)
        series = torch.softmax(torch.einsum("blhe,bshe->bhls", q, k) / math.sqrt(self.dh), dim=-1)
        sigma = torch.sigmoid(self.sigma(x).transpose(1, 2) * 5) + 1e-5
        sigma = (torch.pow(3, sigma) - 1).unsqueeze(-1)
        dist = self.distances[:L, :L]
        prior = torch.exp(-dist ** 2 / 2 / sigma ** 2) / (math.sqrt(2 * math.pi) * sigma)
        prior = prior / prior.sum(dim=-1, keepdim=True)
        out = torch.einsum("bhls,bshd->blhd", series, v).reshape(B, L, D)
        return self.out(out), series, prior


def sym_kl(p, q, eps=1e-4):
    kl = lambda a, b: (a * (torch.log(a + eps) - torch.log(b + eps))).sum(-1)
    return (kl(p, q) + kl(q, p)).mean(dim=1)


class AnomalyTransformer(nn.Module):
    def __init__(self, n_vars=6, dim=32, heads=4, depth=2, win_size=20, temperature=50.0):
        super().__init__()
        self.temperature = temperature
        self.embed = nn.Conv1d(n_vars, dim, 3, padding=1, padding_mode="circular", bias=False)
        self.pos = nn.Parameter(torch.randn(1, win_size, dim) * 0.02)
        self.attn = nn.ModuleList(AnomalyAttention(dim, heads, win_size) for _ in range(depth))
        self.norm1 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
                                for _ in range(depth))
        self.norm2 = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.proj = nn.Linear(dim, n_vars)

    def forward(self, x):
        h = self.embed(x.transpose(1, 2)).transpose(1, 2) + self.pos[:, : x.size(1)]
        discrepancy = 0.0
        for attn, n1, ff, n2 in zip(self.attn, self.norm1, self.ff, self.norm2):
            a, series, prior = attn(h)
            h = n1(h + a)
            h = n2(h + ff(h))
            discrepancy = discrepancy + sym_kl(series, prior)
        recon = self.proj(h)
        err = ((x - recon) ** 2).mean(dim=-1)
        score = torch.softmax(-discrepancy * self.temperature / len(self.attn), dim=-1) * err
        return score, recon


def build():
    torch.manual_seed(0)
    model = AnomalyTransformer().eval()
    x = torch.randn(4, 20, 6)
    return model, (x,)
