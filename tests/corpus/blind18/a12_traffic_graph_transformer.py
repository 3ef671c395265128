"""Graph transformer layer for road-network speed imputation.

Sensors attend to one another with scaled dot-product attention restricted by the road
adjacency (a 0/1 matrix with self-loops); a gated residual mixes the attended message with
the sensor's own state.
"""
import math

import torch
import torch.nn as nn


class MaskedGraphAttention(nn.Module):
    def __init__(self, d, heads=4):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.W_q = nn.Linear(d, d)
        self.W_k = nn.Linear(d, d)
        self.W_v = nn.Linear(d, d)
        self.W_o = nn.Linear(d, d)

    def forward(self, x, adj):  # x: (B, N, d), adj: (N, N) {0,1}
        B, N, d = x.shape
        q = self.W_q(x).view(B, N, self.h, self.dk).transpose(1, 2)
        k = self.W_k(x).view(B, N, self.h, self.dk).transpose(1, 2)
        v = self.W_v(x).view(B, N, self.h, self.dk).transpose(1, 2)
        e = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.dk)
        e = e * adj
        a = torch.softmax(e, dim=-1)
        m = torch.einsum("bhij,bhjd->bhid", a, v).transpose(1, 2).reshape(B, N, d)
        return self.W_o(m)


class GatedGraphLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.attn = MaskedGraphAttention(d)
        self.gate = nn.Linear(2 * d, d)

    def forward(self, x, adj):
        msg = self.attn(self.norm(x), adj)
        g = torch.sigmoid(self.gate(torch.cat([x, msg], -1)))
        return x + g * msg


class SpeedImputer(nn.Module):
    def __init__(self, window=12, d=32, layers=2):
        super().__init__()
        self.inp = nn.Linear(window, d)
        self.layers = nn.ModuleList([GatedGraphLayer(d) for _ in range(layers)])
        self.out = nn.Linear(d, window)

    def forward(self, series, adj):  # series: (B, N, window)
        a = adj.float() + torch.eye(adj.size(0))
        a = a.clamp(max=1.0)
        x = self.inp(series)
        for layer in self.layers:
            x = layer(x, a)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = SpeedImputer().eval()
    series = torch.randn(2, 14, 12)
    adj = (torch.rand(14, 14) < 0.25).float()
    adj = ((adj + adj.t()) > 0).float()
    return model, (series, adj)
