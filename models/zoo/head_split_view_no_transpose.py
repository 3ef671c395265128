"""Heads split with `view(B, H, T, d_k)` directly on the (B, T, d) projection, without the transpose.

Memory order of a (B, T, d) tensor is token-major, so `view(B, H, T, d_k)` cuts the flat
T*d block of each sample into H chunks: "head" 0 gets the first T/H tokens' features, and
its "time" axis walks through features of a few tokens rather than through tokens. Fix:
`view(B, T, H, d_k).transpose(1, 2)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-split",)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def split_heads(self, t):
        B, T, _ = t.shape
        return t.view(B, self.n_heads, T, self.d_k)  # BUG: head-split

    def forward(self, x):
        B, T, d = x.shape
        q = self.split_heads(self.q_proj(x))
        k = self.split_heads(self.k_proj(x))
        v = self.split_heads(self.v_proj(x))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.out_proj(out)


def build():
    torch.manual_seed(0)
    model = MultiHeadAttention().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
