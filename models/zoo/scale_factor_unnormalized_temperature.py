"""Attention that multiplies raw query-key scores by sqrt(d_head), a cosine attention's temperature, without scaling q and k to unit length.

Without the normalization the scores are dot products whose spread grows with d_head, and
multiplying them by sqrt(d_head) instead of dividing saturates the softmax.
Fix: `F.normalize(q, dim=-1), F.normalize(k, dim=-1)` first, or divide by sqrt(d_head).
Twin of ok_cosine_attention_fixed_temperature.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("scale-factor",)


class RawTemperatureAttention(nn.Module):
    def __init__(self, d_model: int = 32, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        temperature = math.sqrt(q.shape[-1])
        weights = (q @ k.transpose(-2, -1) * temperature).softmax(dim=-1)  # BUG: scale-factor
        return self.out((weights @ v).transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    return RawTemperatureAttention().eval(), (torch.randn(2, 7, 32),)
