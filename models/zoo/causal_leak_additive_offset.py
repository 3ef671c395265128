"""Additive causal bias `torch.triu(full(-inf), diagonal=2)`: off by one, query t still sees key t+1.

The -inf bias must start one above the diagonal (`diagonal=1`). With `diagonal=2` the first
super-diagonal stays 0, so every query reads the next token (einsum-style multi-head
attention, sequence-first input (T, B, d)). Fix: `diagonal=1`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-leak",)


class CausalMHA(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):  # x: (T, B, d)
        T, B, d = x.shape
        H, dk = self.n_heads, self.d_k
        q = self.wq(x).view(T, B, H, dk)
        k = self.wk(x).view(T, B, H, dk)
        v = self.wv(x).view(T, B, H, dk)
        scores = torch.einsum("qbhd,kbhd->bhqk", q, k) / math.sqrt(dk)
        bias = torch.triu(torch.full((T, T), float("-inf")), diagonal=2)
        scores = scores + bias  # BUG: causal-leak
        weights = scores.softmax(dim=-1)
        out = torch.einsum("bhqk,kbhd->qbhd", weights, v).reshape(T, B, d)
        return self.wo(out)


def build():
    torch.manual_seed(0)
    model = CausalMHA().eval()
    x = torch.randn(6, 2, 16)
    return model, (x,)
