"""Values split into heads twice: the (B*H, T, d_h) values are viewed as (B, T, H, d_h) once more.

The helper that splits q, k and v already returns (B*H, T, d_h); the second `view(B, T, H,
d_h)` reads that memory as if it were still (B, T, d), so each "head" now holds a mix of
heads and token positions, and the weights are summed against the wrong rows.
Fix: drop the second split and use the values as the helper returns them.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-split",)


class MultiHeadAttention(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2):
        super().__init__()
        self.heads, self.head_width = heads, width // heads
        self.query, self.key, self.value = (nn.Linear(width, width) for _ in range(3))

    def forward(self, x):
        b, t, width = x.shape
        def split(p):
            return p.view(b, t, self.heads, self.head_width).permute(0, 2, 1, 3).reshape(b * self.heads, t, -1)
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        v = v.view(b, t, self.heads, self.head_width).transpose(1, 2).reshape(b * self.heads, t, -1)  # BUG: head-split
        weights = torch.softmax(torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.head_width), dim=-1)
        out = torch.bmm(weights, v).view(b, self.heads, t, -1)
        return out.transpose(1, 2).reshape(b, t, width)


def build():
    torch.manual_seed(0)
    return MultiHeadAttention().eval(), (torch.randn(2, 7, 16),)
