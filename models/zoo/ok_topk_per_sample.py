"""Mixture-of-depths routing with a capacity per sample: each sample's top-k of its own tokens."""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class RoutedBlock(nn.Module):
    def __init__(self, width: int = 16, capacity: float = 0.5):
        super().__init__()
        self.capacity = capacity
        self.router = nn.Linear(width, 1)
        self.mlp = nn.Sequential(nn.Linear(width, 32), nn.GELU(), nn.Linear(32, width))

    def forward(self, x):
        b, t, _ = x.shape
        scores = self.router(x).squeeze(-1)
        chosen = torch.zeros(b, t, dtype=torch.bool)
        chosen.scatter_(1, scores.topk(int(self.capacity * t), dim=-1).indices, True)
        return x + self.mlp(x) * chosen[..., None]


def build():
    torch.manual_seed(0)
    return RoutedBlock().eval(), (torch.randn(3, 8, 16),)
