"""Correct: a learned relative-position bias (H, Tq, Tk) added beside a `torch.where` key padding mask.

Trap for a checker that takes every added tensor for a mask: the bias has many levels and
varies along the heads, the queries and the keys; only the padding mask hides keys.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class RelativeAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, max_distance: int = 8):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.max_distance = max_distance
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.rel = nn.Embedding(2 * max_distance + 1, n_heads)

    def bias(self, T: int) -> torch.Tensor:
        pos = torch.arange(T)
        distance = (pos[None, :] - pos[:, None]).clamp(-self.max_distance, self.max_distance) + self.max_distance
        return self.rel(distance).permute(2, 0, 1)  # (H, Tq, Tk)

    def forward(self, x, key_padding_mask):  # key_padding_mask: (B, T), True = padding
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.dk).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.dk).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dk) + self.bias(T)
        scores = torch.where(key_padding_mask[:, None, None, :], float("-inf"), scores)
        attn = scores.softmax(-1)
        return self.o((attn @ v).transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    model = RelativeAttention().eval()
    x = torch.randn(2, 6, 16)
    key_padding_mask = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    return model, (x, key_padding_mask)
