"""Causal mask from `torch.tril(ones, diagonal=1)`: every query also sees the next position.

`tril(..., diagonal=1)` keeps one super-diagonal, so query t reads key t+1: the model sees
one token of the future (during training this lets it copy the target it should predict).
Fix: `torch.tril(torch.ones(T, T))` (diagonal=0).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-leak",)


class CausalSelfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        mask = torch.tril(torch.ones(T, T), diagonal=1)
        scores = scores.masked_fill(mask == 0, float("-inf"))  # BUG: causal-leak
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = CausalSelfAttention().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
