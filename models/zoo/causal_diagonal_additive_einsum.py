"""Additive causal bias `torch.triu(full(-1e9), diagonal=0)`: the diagonal is masked, query t cannot see key t.

Einsum-style multi-head attention. The -1e9 bias covers the diagonal too, so every token
attends only to strictly earlier tokens, and query 0 has every key masked: all its scores
are -1e9 and its weights come out uniform over keys it must not read.
Fix: `torch.triu(..., diagonal=1)`. Secondary: row 0 is fully masked -> ALSO = ("fully-masked-row",).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-diagonal",)
ALSO: tuple[str, ...] = ("fully-masked-row",)


class CausalAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.to_q = nn.Linear(d_model, d_model, bias=False)
        self.to_k = nn.Linear(d_model, d_model, bias=False)
        self.to_v = nn.Linear(d_model, d_model, bias=False)
        self.to_out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        H, dk = self.n_heads, self.d_k
        q = self.to_q(x).view(B, T, H, dk)
        k = self.to_k(x).view(B, T, H, dk)
        v = self.to_v(x).view(B, T, H, dk)
        scores = torch.einsum("bihd,bjhd->bhij", q, k) / math.sqrt(dk)
        causal_bias = torch.triu(torch.full((T, T), -1e9), diagonal=0)
        scores = scores + causal_bias  # BUG: causal-diagonal
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", attn, v).reshape(B, T, d)
        return self.to_out(out)


def build():
    torch.manual_seed(0)
    model = CausalAttention().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
