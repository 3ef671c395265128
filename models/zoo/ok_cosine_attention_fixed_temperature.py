"""Cosine attention: queries and keys scaled to unit length, the scores multiplied by a fixed temperature sqrt(d_head): correct.

The scores are cosines, in [-1, 1] whatever the width, so 1/sqrt(d_k) is no convention for them:
a temperature (here the constant sqrt(d_head), elsewhere a learned one) sets how sharp the
weights get. Twin of scale_factor_unnormalized_temperature.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class CosineAttention(nn.Module):
    def __init__(self, d_model: int = 32, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)
        temperature = math.sqrt(q.shape[-1])
        weights = (q @ k.transpose(-2, -1) * temperature).softmax(dim=-1)
        return self.out((weights @ v).transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    return CosineAttention().eval(), (torch.randn(2, 7, 32),)
