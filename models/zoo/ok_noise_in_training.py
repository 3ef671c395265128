"""Noise added to the attention input in training mode only: correct, inference is deterministic.

Twin of nondeterministic_noise_in_eval.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class NoisyAttention(nn.Module):
    def __init__(self, d_model: int = 16, noise: float = 0.1):
        super().__init__()
        self.noise = noise
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        if self.training:
            x = x + self.noise * torch.randn_like(x)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        return F.softmax(scores, dim=-1) @ v


def build():
    torch.manual_seed(0)
    model = NoisyAttention().eval()
    return model, (torch.randn(2, 5, 16),)
