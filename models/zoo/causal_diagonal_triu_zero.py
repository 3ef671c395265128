"""Causal mask from `torch.triu(ones, diagonal=0)`: it hides the diagonal, so query t cannot see key t.

The hide-mask must be strictly above the diagonal (`diagonal=1`). With `diagonal=0` each
query loses its own key as well, and query 0, which may only read key 0, has every key
masked: its row is all -inf and its weights are NaN. Fix: `torch.triu(ones, diagonal=1)`.
Secondary: row 0 is fully masked -> ALSO = ("fully-masked-row", "nan").
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-diagonal",)
ALSO: tuple[str, ...] = ("fully-masked-row", "nan")


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
        mask = torch.triu(torch.ones(T, T), diagonal=0).bool()
        scores = scores.masked_fill(mask, float("-inf"))  # BUG: causal-diagonal
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = CausalSelfAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
