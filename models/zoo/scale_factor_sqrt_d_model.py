"""Scores divided by sqrt(d_model) instead of sqrt(d_k) in 4-head attention (d_model = 16, d_k = 4).

Each head's dot product runs over d_k = d_model / H = 4 features, so its variance is d_k and
the right divisor is sqrt(d_k) = 2. Dividing by sqrt(d_model) = 4 shrinks the scores twice
too much and flattens the softmax. Fix: `/ math.sqrt(self.d_k)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("scale-factor",)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.W_q(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.W_k(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.W_v(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / math.sqrt(self.d_model)  # BUG: scale-factor
        attn = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn, v).transpose(1, 2).reshape(B, T, self.d_model)
        return self.W_o(out)


def build():
    torch.manual_seed(0)
    model = MultiHeadAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
