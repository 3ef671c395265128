"""Attention along the rows of a pair grid (triangle attention): padded residues hide whole rows.

Scores are (B, I, H, J, K): each row i of the grid attends over k. A padded residue i has every
key hidden, but that row is padding itself; the mask differs between rows as it differs between
samples, which is no head-order mistake.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class RowAttention(nn.Module):
    def __init__(self, channels: int = 8, heads: int = 2, width: int = 4):
        super().__init__()
        self.heads, self.width = heads, width
        self.qkv = nn.Linear(channels, 3 * heads * width, bias=False)
        self.out = nn.Linear(heads * width, channels)

    def forward(self, pair, residue_mask):
        b, n, _, _ = pair.shape
        q, k, v = self.qkv(pair).view(b, n, n, 3, self.heads, self.width).permute(3, 0, 1, 4, 2, 5)
        grid = residue_mask[:, :, None] * residue_mask[:, None, :]  # (B, I, K)
        bias = (grid - 1.0)[:, :, None, None, :] * 1e9
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return pair + self.out(o.permute(0, 1, 3, 2, 4).reshape(b, n, n, -1))


def build():
    torch.manual_seed(0)
    mask = torch.ones(2, 6)
    mask[1, 4:] = 0
    return RowAttention().eval(), (torch.randn(2, 6, 6, 8), mask)
