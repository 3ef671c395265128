"""Softmax over the query axis: `torch.softmax(scores, dim=-2)` on a (B, H, T_q, T_k) score table.

The scores are laid out (batch, head, query, key). `dim=-2` normalizes each COLUMN (one key,
all queries), so a query's weights over the keys no longer sum to 1, yet they are still
multiplied with the values over the key axis. Fix: `torch.softmax(scores, dim=-1)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class SelfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)  # (B, H, T_q, T_k)
        weights = torch.softmax(scores, dim=-2)  # BUG: softmax-axis
        out = weights @ v  # (B, H, T, d_k)
        out = out.transpose(1, 2).reshape(B, T, d)
        return self.out_proj(out)


def build():
    torch.manual_seed(0)
    model = SelfAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
