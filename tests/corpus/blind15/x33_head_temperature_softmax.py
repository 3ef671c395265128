"""Decoder-only load forecaster (post-LN, as in the original Transformer) whose attention has a
learned temperature per head. Inputs are raw meter readings in kW; the model predicts the
next reading of each variable at every step.
"""
import math

import torch
import torch.nn as nn


class TemperedCausalAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h, self.dh = n_heads, d_model // n_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)
        self.log_temp = nn.Parameter(torch.zeros(n_heads, 1, 1))

    def forward(self, x):
        B, T, D = x.shape
        q = self.wq(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.wk(x).view(B, T, self.h, self.dh).transpose(1, 2)
        v = self.wv(x).view(B, T, self.h, self.dh).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.log_temp.exp() / math.sqrt(self.dh)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
        weights = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(B, T, D)
        return self.wo(out)


class PostLNLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = TemperedCausalAttention(d_model, n_heads)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.norm1(x + self.attn(x))
        return self.norm2(x + self.ff(x))


class LoadForecaster(nn.Module):
    def __init__(self, n_vars=5, d_model=32, n_heads=4, n_layers=2, max_len=96):
        super().__init__()
        self.value_proj = nn.Linear(n_vars, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(PostLNLayer(d_model, n_heads) for _ in range(n_layers))
        self.out = nn.Linear(d_model, n_vars)

    def forward(self, series):
        x = self.value_proj(series) + self.pos(torch.arange(series.size(1), device=series.device))
        for layer in self.layers:
            x = layer(x)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = LoadForecaster().eval()
    t = torch.arange(24).float()
    daily = 250 + 120 * torch.sin(2 * math.pi * t / 24)
    series = daily[None, :, None] * torch.rand(3, 1, 5) + 15 * torch.randn(3, 24, 5)
    return model, (series,)
