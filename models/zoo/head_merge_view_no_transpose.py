"""Heads merged with `out.view(B, T, d)` directly on the (B, H, T, d_k) attention output, without the transpose.

`weights @ v` is (B, H, T, d_k) and contiguous in head-major order, so `view(B, T, d)` reads
each merged "token" row out of one head's consecutive time steps: output token t mixes
several positions of a single head instead of concatenating all heads of position t.
Fix: `out.transpose(1, 2).contiguous().view(B, T, d)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-merge",)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q = self.W_q(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.W_k(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.W_v(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        out = torch.softmax(scores, dim=-1) @ v  # (B, H, T, d_k)
        out = out.view(B, T, d)  # BUG: head-merge
        return self.W_o(out)


def build():
    torch.manual_seed(0)
    model = MultiHeadAttention().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
