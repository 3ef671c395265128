"""Sequence-first heads merged with `out.view(T, B, d)` on the (B*H, T, d_k) bmm output, skipping `transpose(0, 1)`.

In nn.MultiheadAttention's layout the per-head output is (B*H, T, d_k); it must become
(T, B*H, d_k) before viewing as (T, B, d). Viewing it directly makes the new time and batch
axes walk through heads and batch items, so merged token t is made of other tokens' and
other samples' head outputs. Fix: `out.transpose(0, 1).contiguous().view(T, B, d)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-merge",)


class SeqFirstMHA(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x):  # x: (T, B, d)
        T, B, d = x.shape
        H, dk = self.n_heads, self.d_k
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.contiguous().view(T, B * H, dk).transpose(0, 1)
        k = k.contiguous().view(T, B * H, dk).transpose(0, 1)
        v = v.contiguous().view(T, B * H, dk).transpose(0, 1)
        weights = torch.softmax(torch.bmm(q, k.transpose(1, 2)) / math.sqrt(dk), dim=-1)
        out = torch.bmm(weights, v)  # (B*H, T, dk)
        out = out.view(T, B, d)  # BUG: head-merge
        return self.out_proj(out)


def build():
    torch.manual_seed(0)
    model = SeqFirstMHA().eval()
    x = torch.randn(5, 2, 16)
    return model, (x,)
