"""Attention pooling with learned probe queries whose softmax runs over the probes (dim=-2) instead of the tokens.

Each of the m learned probes must spread its weight over the T tokens it reads: the
weights are summed against the values over the tokens, so that is the axis to normalize.
Here every token's weights are normalized across the probes instead. Fix: `dim=-1`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class ProbePooling(nn.Module):
    def __init__(self, d_model: int = 16, probes: int = 4):
        super().__init__()
        self.probes = nn.Parameter(torch.randn(probes, d_model))
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)

    def forward(self, x):
        scores = self.probes @ self.key(x).transpose(-2, -1) / math.sqrt(x.shape[-1])  # (B, m, T)
        weights = F.softmax(scores, dim=-2)  # BUG: softmax-axis
        return weights @ self.value(x)


def build():
    torch.manual_seed(0)
    model = ProbePooling().eval()
    return model, (torch.randn(2, 6, 16),)
