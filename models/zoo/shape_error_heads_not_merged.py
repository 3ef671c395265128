"""Heads not merged back before the output projection: `W_o` (16 -> 16) applied to (B, H, T, d_k = 4) raises.

The per-head outputs must be concatenated, (B, H, T, d_k) -> (B, T, H * d_k), before the
output projection mixes them. Feeding the 4-wide head outputs to a Linear that expects 16
features fails inside F.linear. Fix: `out.transpose(1, 2).reshape(B, T, d)` first.
The forward pass raises by design.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("shape-error",)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_qkv = nn.Linear(d_model, 3 * d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.W_qkv(x).chunk(3, dim=-1)
        q = q.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        weights = torch.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(self.d_k), dim=-1)
        out = torch.einsum("bhqk,bhkd->bhqd", weights, v)  # (B, H, T, d_k)
        return self.W_o(out)  # BUG: shape-error


def build():
    torch.manual_seed(0)
    model = MultiHeadAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
