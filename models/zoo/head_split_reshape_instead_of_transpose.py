"""Heads split with `reshape(B, T, H, d_k).reshape(B, H, T, d_k)`: a second reshape where a transpose was meant.

The first reshape is right, (B, T, H, d_k). Reshaping it again to (B, H, T, d_k) does not
swap the T and H axes; it re-cuts the same memory, so the new "time" axis mixes token and
head (feature) positions. Fix: `.transpose(1, 2)` (or `.permute(0, 2, 1, 3)`).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-split",)


class Attention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        H, dk = self.n_heads, self.d_k
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.reshape(B, T, H, dk).reshape(B, H, T, dk)  # BUG: head-split
        k = k.reshape(B, T, H, dk).transpose(1, 2)
        v = v.reshape(B, T, H, dk).transpose(1, 2)
        att = torch.softmax(torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(dk), dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(B, T, d)
        return self.proj(y)


def build():
    torch.manual_seed(0)
    model = Attention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
