"""Correct: einsum-style multi-head attention with a causal mask `triu(ones, diagonal=1)` filled with -inf.

Trap for a checker that expects matmul / transpose: q, k, v stay (B, T, H, d_k) and the
einsum strings do the head transpose; the mask hides exactly the keys after each query.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class EinsumCausalMHA(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.to_qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.to_out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.to_qkv(x).view(B, T, 3, self.n_heads, self.d_k).unbind(dim=2)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(self.d_k)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
        weights = scores.softmax(dim=-1)
        out = torch.einsum("bhqk,bkhd->bqhd", weights, v).reshape(B, T, d)
        return self.to_out(out)


def build():
    torch.manual_seed(0)
    model = EinsumCausalMHA().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
