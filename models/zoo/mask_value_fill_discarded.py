"""Causal mask whose `masked_fill` result is thrown away: `scores.masked_fill(mask, -1e9)` as a bare statement.

`Tensor.masked_fill` is not in place; it returns a new tensor. Written as a statement, its
result is discarded and the softmax runs on the unmasked scores, so every query attends to
the future. Fix: `scores = scores.masked_fill(mask, -1e9)` (or the in-place `masked_fill_`).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-value",)


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.d_k))
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        att.masked_fill(mask, -1e9)  # BUG: mask-value
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def build():
    torch.manual_seed(0)
    model = CausalSelfAttention().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
