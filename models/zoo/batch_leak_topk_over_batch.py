"""Mixture-of-depths routing whose capacity is a top-k over every token of the batch at once.

Which tokens of one sample are processed depends on the router scores of the other samples.
Fix: choose per sample, `scores.topk(k_per_sample, dim=-1)`, and mark those.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("batch-leak",)


class RoutedBlock(nn.Module):
    def __init__(self, width: int = 16, capacity: float = 0.5):
        super().__init__()
        self.capacity = capacity
        self.router = nn.Linear(width, 1)
        self.mlp = nn.Sequential(nn.Linear(width, 32), nn.GELU(), nn.Linear(32, width))

    def forward(self, x):
        b, t, _ = x.shape
        scores = self.router(x).squeeze(-1)
        chosen = torch.zeros(b * t, dtype=torch.bool)
        chosen[scores.flatten().topk(int(self.capacity * b * t)).indices] = True  # BUG: batch-leak
        chosen = chosen.view(b, t)
        return x + self.mlp(x) * chosen[..., None]


def build():
    torch.manual_seed(0)
    return RoutedBlock().eval(), (torch.randn(3, 8, 16),)
