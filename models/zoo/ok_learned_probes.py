"""Attention pooling with learned probe queries, each normalized over the tokens it reads: correct.

Twin of softmax_axis_learned_probes.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class ProbePooling(nn.Module):
    def __init__(self, d_model: int = 16, probes: int = 4):
        super().__init__()
        self.probes = nn.Parameter(torch.randn(probes, d_model))
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)

    def forward(self, x):
        scores = self.probes @ self.key(x).transpose(-2, -1) / math.sqrt(x.shape[-1])  # (B, m, T)
        weights = F.softmax(scores, dim=-1)
        return weights @ self.value(x)


def build():
    torch.manual_seed(0)
    model = ProbePooling().eval()
    return model, (torch.randn(2, 6, 16),)
