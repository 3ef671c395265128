import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RoutedAttentionBlock(nn.Module):
    """Mixture-of-depths block with expert-choice routing: a fixed token budget per forward pass."""

    def __init__(self, d=32, heads=4, capacity_factor=0.5):
        super().__init__()
        self.h, self.capacity_factor = heads, capacity_factor
        self.router = nn.Linear(d, 1, bias=False)
        self.norm = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        scores = self.router(x).squeeze(-1)  # [B, T]
        k = int(self.capacity_factor * B * T)
        chosen = torch.zeros(B * T, dtype=torch.bool)
        chosen[scores.flatten().topk(k).indices] = True
        chosen = chosen.view(B, T)
        h = self.norm(x)
        q, kk, v = self.qkv(h).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        att = q @ kk.transpose(-1, -2) / math.sqrt(D // self.h)
        att = att.masked_fill(~chosen[:, None, None, :], -1e9)  # only routed tokens are keys
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)
        gate = torch.sigmoid(scores)[..., None] * chosen[..., None]
        return x + gate * self.proj(y)


class SensorEncoder(nn.Module):
    def __init__(self, in_dim=5, d=32, depth=2, n_out=2):
        super().__init__()
        self.inp = nn.Linear(in_dim, d)
        self.pos = nn.Parameter(torch.randn(1, 16, d) * 0.02)
        self.blocks = nn.ModuleList(RoutedAttentionBlock(d) for _ in range(depth))
        self.ff = nn.ModuleList(nn.Sequential(nn.LayerNorm(d), nn.Linear(d, d), nn.GELU()) for _ in range(depth))
        self.head = nn.Linear(d, n_out)

    def forward(self, x):
        h = self.inp(x) + self.pos[:, : x.size(1)]
        for blk, ff in zip(self.blocks, self.ff):
            h = blk(h)
            h = h + ff(h)
        return self.head(h.mean(1))


def build():
    torch.manual_seed(0)
    model = SensorEncoder().eval()
    x = torch.randn(3, 10, 5)
    return model, (x,)
