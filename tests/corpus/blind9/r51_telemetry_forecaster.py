import math

import torch
import torch.nn as nn


def masked_softmax(scores, mask, dim=-1):
    scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.exp()
    return weights / weights.sum(dim=dim, keepdim=True)


class CausalHead(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, D = x.shape
        split = lambda t: t.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)
        mask = torch.ones(T, T, dtype=torch.bool).tril()
        attn = masked_softmax(scores, mask, dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, D)
        return self.wo(out)


class ForecastBlock(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = CausalHead(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.n1 = nn.LayerNorm(d_model)
        self.n2 = nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.n1(x + self.attn(x))
        return self.n2(x + self.ff(x))


class SensorForecaster(nn.Module):
    def __init__(self, n_sensors=6, d_model=32, n_heads=4, n_layers=2, horizon=3, max_len=64):
        super().__init__()
        self.inp = nn.Linear(n_sensors, d_model)
        self.pos = nn.Parameter(torch.randn(max_len, d_model) * 0.1)
        self.blocks = nn.ModuleList([ForecastBlock(d_model, n_heads) for _ in range(n_layers)])
        self.out = nn.Linear(d_model, n_sensors * horizon)

    def forward(self, series):
        x = self.inp(series) + self.pos[: series.size(1)]
        for blk in self.blocks:
            x = blk(x)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = SensorForecaster().eval()
    series = 40.0 * torch.randn(2, 12, 6)
    return model, (series,)
