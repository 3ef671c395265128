"""Head-major (H*B, T, T) scores given a padding mask expanded batch-major with repeat_interleave.

The heads are split with `view(B, T, H, d).permute(2, 0, 1, 3).reshape(H * B, T, d)`: row
h * B + b of the scores is head h of sample b. `repeat_interleave(H, dim=0)` orders the mask
rows b * H + h instead, so (with B > 1) most heads read another sample's padding.
Fix: `key_padding_mask.repeat(H, 1).unsqueeze(1)`, which follows the scores' head-major order.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-axis",)


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
        hidden = key_padding_mask.repeat_interleave(self.heads, dim=0).unsqueeze(1)
        scores = scores.masked_fill(hidden, float("-inf"))  # BUG: mask-axis
        out = torch.bmm(scores.softmax(dim=-1), v)                               # (H*B, T, d_h)
        return out.view(self.heads, b, t, -1).permute(1, 2, 0, 3).reshape(b, t, width)


def build():
    torch.manual_seed(0)
    key_padding_mask = torch.tensor([[False] * 6, [False] * 4 + [True] * 2, [False] * 3 + [True] * 3])
    return HeadMajorAttention().eval(), (torch.randn(3, 6, 16), key_padding_mask)
