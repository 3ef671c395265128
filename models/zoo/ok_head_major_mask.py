"""Correct: head-major (H*B, T, T) scores with the padding mask repeated once per head, `repeat(H, 1)`.

Trap for a checker that expects every per-head mask to be batch-major (repeat_interleave): the
scores here are head-major, and `repeat` is the expansion that follows them.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class HeadMajorAttention(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)

    def forward(self, x, key_padding_mask):                     # (B, T, d), (B, T) with True = padding
        b, t, width = x.shape
        def heads(p):
            return p.view(b, t, self.heads, -1).permute(2, 0, 1, 3).reshape(self.heads * b, t, -1)
        q, k, v = map(heads, self.qkv(x).chunk(3, dim=-1))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(q.shape[-1])     # (H*B, T, T)
        hidden = key_padding_mask.repeat(self.heads, 1).unsqueeze(1)
        scores = scores.masked_fill(hidden, float("-inf"))
        out = torch.bmm(scores.softmax(dim=-1), v)                               # (H*B, T, d_h)
        return out.view(self.heads, b, t, -1).permute(1, 2, 0, 3).reshape(b, t, width)


def build():
    torch.manual_seed(0)
    key_padding_mask = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] * 3 + [True] * 3])
    return HeadMajorAttention().eval(), (torch.randn(3, 6, 16), key_padding_mask)
