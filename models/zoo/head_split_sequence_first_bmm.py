"""Sequence-first (T, B, d) projection split into heads with `reshape(B * H, T, d_k)`, skipping the (T, B*H) step.

nn.MultiheadAttention's layout: `q.view(T, B * H, d_k).transpose(0, 1)` gives (B*H, T, d_k).
Reshaping the (T, B, d) tensor straight to (B*H, T, d_k) re-cuts token-major memory, so
each "head" row mixes time steps, batch items and feature chunks. Fix:
`q.view(T, B * H, d_k).transpose(0, 1)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-split",)


class SeqFirstAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):  # x: (T, B, d)
        T, B, d = x.shape
        H, dk = self.n_heads, self.d_k
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.reshape(B * H, T, dk)  # BUG: head-split
        k = k.contiguous().view(T, B * H, dk).transpose(0, 1)
        v = v.contiguous().view(T, B * H, dk).transpose(0, 1)
        weights = torch.softmax(torch.bmm(q, k.transpose(1, 2)) / math.sqrt(dk), dim=-1)
        out = torch.bmm(weights, v).transpose(0, 1).contiguous().view(T, B, d)
        return self.out_proj(out)


def build():
    torch.manual_seed(0)
    model = SeqFirstAttention().eval()
    x = torch.randn(5, 2, 16)
    return model, (x,)
