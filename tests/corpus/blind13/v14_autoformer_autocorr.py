"""Autoformer encoder with the auto-correlation mechanism (inference path).

Period-based dependencies: the autocorrelation of queries and keys is computed with the FFT
along time, the top-k lags of each series are kept, their correlation values are turned
into weights with a softmax, and the values are aggregated by rolling them by each lag.
"""
import math

import torch
import torch.nn as nn


class AutoCorrelation(nn.Module):
    def __init__(self, d_model=32, heads=4, factor=1):
        super().__init__()
        self.h, self.factor = heads, factor
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, L, D = x.shape
        q = self.q(x).view(B, L, self.h, -1)
        k = self.k(x).view(B, L, self.h, -1)
        v = self.v(x).view(B, L, self.h, -1)
        qf = torch.fft.rfft(q.permute(0, 2, 3, 1), dim=-1)
        kf = torch.fft.rfft(k.permute(0, 2, 3, 1), dim=-1)
        corr = torch.fft.irfft(qf * torch.conj(kf), n=L, dim=-1)       # (B, H, dh, L) over lags
        top_k = int(self.factor * math.log(L))
        mean_value = corr.mean(dim=(1, 2))                              # (B, L)
        weights, delays = torch.topk(mean_value, top_k, dim=-1)         # (B, k)
        tmp_corr = torch.softmax(weights, dim=0)
        values = v.permute(0, 2, 3, 1)                                  # (B, H, dh, L)
        idx = torch.arange(L, device=x.device)
        agg = torch.zeros_like(values)
        for i in range(top_k):
            shifted = (idx[None, :] + delays[:, i:i + 1]) % L               # (B, L)
            rolled = torch.gather(values, -1, shifted[:, None, None, :].expand_as(values))
            agg = agg + rolled * tmp_corr[:, i].view(B, 1, 1, 1)
        return self.o(agg.permute(0, 3, 1, 2).reshape(B, L, D))


class SeriesDecomp(nn.Module):
    def __init__(self, kernel=5):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel, stride=1, padding=0)
        self.kernel = kernel

    def forward(self, x):
        pad = (self.kernel - 1) // 2
        front = x[:, :1].expand(-1, pad, -1)
        end = x[:, -1:].expand(-1, pad, -1)
        trend = self.pool(torch.cat([front, x, end], dim=1).transpose(1, 2)).transpose(1, 2)
        return x - trend, trend


class AutoformerEncoder(nn.Module):
    def __init__(self, n_vars=5, d_model=32, n_layers=2):
        super().__init__()
        self.embed = nn.Conv1d(n_vars, d_model, kernel_size=3, padding=1, padding_mode="circular")
        self.attn = nn.ModuleList(AutoCorrelation(d_model) for _ in range(n_layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, d_model)) for _ in range(n_layers))
        self.decomp1 = nn.ModuleList(SeriesDecomp() for _ in range(n_layers))
        self.decomp2 = nn.ModuleList(SeriesDecomp() for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_vars)

    def forward(self, series):
        x = self.embed(series.transpose(1, 2)).transpose(1, 2)
        for attn, ff, d1, d2 in zip(self.attn, self.ff, self.decomp1, self.decomp2):
            x, _ = d1(x + attn(x))
            x, _ = d2(x + ff(x))
        x = self.norm(x)
        return self.head(x - x.mean(dim=1, keepdim=True))


def build():
    torch.manual_seed(0)
    model = AutoformerEncoder().eval()
    return model, (torch.randn(3, 16, 5),)
