"""Causal mask applied by multiplying the softmax weights by a 0/1 lower-triangular matrix.

`softmax(scores) * tril` zeroes the future keys after normalization: row t keeps only the
share the softmax gave to keys 0..t, so it sums to less than 1 (row 0 keeps a single,
small weight). Fix: add -inf above the diagonal to the scores before the softmax.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-after-softmax",)


class CausalHead(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, d = x.shape
        H, dk = self.n_heads, self.d_k
        q = self.W_q(x).reshape(B, T, H, dk)
        k = self.W_k(x).reshape(B, T, H, dk)
        v = self.W_v(x).reshape(B, T, H, dk)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(dk)
        causal = torch.tril(torch.ones(T, T))
        weights = scores.softmax(dim=-1) * causal  # BUG: mask-after-softmax
        out = torch.einsum("bhqk,bkhd->bqhd", weights, v).reshape(B, T, d)
        return self.W_o(out)


def build():
    torch.manual_seed(0)
    model = CausalHead().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
