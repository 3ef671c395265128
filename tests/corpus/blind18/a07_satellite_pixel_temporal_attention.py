"""Lightweight temporal attention encoder (L-TAE style) for satellite image time series.

Each pixel-set is a sequence of acquisitions with irregular dates; positions are encoded from
the day of year rather than from the index, and each head has a learned master query that
attends over the acquisitions. Cloudy/missing acquisitions are flagged in `obs_mask`.
"""
import math

import torch
import torch.nn as nn


def day_encoding(days, d, T=1000.0):
    """Sinusoidal encoding of the acquisition date (in days), shape (B, S, d)."""
    i = torch.arange(d // 2, dtype=torch.float32, device=days.device)
    freq = torch.exp(-math.log(T) * 2 * i / d)
    ang = days.float().unsqueeze(-1) * freq
    return torch.cat([ang.sin(), ang.cos()], dim=-1)


class LTAE(nn.Module):
    def __init__(self, in_ch, d=32, heads=4, d_k=8):
        super().__init__()
        self.heads, self.d_k, self.d = heads, d_k, d
        self.inconv = nn.Sequential(nn.Linear(in_ch, d), nn.LayerNorm(d))
        self.master_q = nn.Parameter(torch.randn(heads, d_k) * d_k ** -0.5)
        self.fc_k = nn.Linear(d, heads * d_k)
        self.out = nn.Sequential(nn.Linear(d, d), nn.LayerNorm(d), nn.ReLU())

    def forward(self, x, days, obs_mask):
        B, S, _ = x.shape
        e = self.inconv(x) + day_encoding(days, self.d)
        k = self.fc_k(e).view(B, S, self.heads, self.d_k)
        scores = torch.einsum("hk,bshk->bhs", self.master_q, k) / math.sqrt(self.d_k)
        scores = scores.masked_fill(obs_mask.unsqueeze(1) == 0, -1e9)
        attn = scores.softmax(dim=-1)
        v = e.view(B, S, self.heads, self.d // self.heads)
        out = torch.einsum("bhs,bshc->bhc", attn, v).reshape(B, self.d)
        return self.out(out)


class CropClassifier(nn.Module):
    def __init__(self, bands=10, n_classes=8):
        super().__init__()
        self.tae = LTAE(bands)
        self.cls = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, n_classes))

    def forward(self, x, days, obs_mask):
        return self.cls(self.tae(x, days, obs_mask))


def build():
    torch.manual_seed(0)
    model = CropClassifier().eval()
    x = torch.randn(4, 12, 10)
    days = torch.sort(torch.randint(0, 365, (4, 12)), dim=1).values
    obs_mask = torch.ones(4, 12, dtype=torch.long)
    obs_mask[0, 9:] = 0
    obs_mask[1, 2:5] = 0
    obs_mask[3, 7:] = 0
    return model, (x, days, obs_mask)
