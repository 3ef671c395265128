"""Stochastic depth drawn with `torch.rand` on every call: in eval mode a layer is still skipped at random.

Dropping a residual branch at random regularizes training; at inference every branch must
run. Fix: `if self.training and torch.rand(()) < self.drop: return x`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("nondeterministic",)


class StochasticDepthBlock(nn.Module):
    def __init__(self, d_model: int = 16, drop: float = 0.5):
        super().__init__()
        self.drop = drop
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        branch = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v
        keep = (torch.rand(x.shape[0], 1, 1) >= self.drop).float()  # BUG: nondeterministic
        return x + keep * branch / (1 - self.drop)


def build():
    torch.manual_seed(0)
    model = StochasticDepthBlock().eval()
    return model, (torch.randn(4, 5, 16),)
