"""A chunk of new tokens attending over cached keys with `causal_upper_left`: the triangle starts at the first cached key, so no query sees its own key or the ones just before it.

With 4 cached keys in front of 3 new queries, query t (absolute position 4 + t) must see keys
0..4 + t: the triangle aligned at the lower right. `causal_upper_left` aligns it at the top
left, as if the queries were the first positions. Fix: `causal_lower_right(Tq, Tk)`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.bias import causal_upper_left

EXPECTED: tuple[str, ...] = ("causal-diagonal",)


class ChunkAttention(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)

    def forward(self, chunk, past_k, past_v):
        B, T, C = chunk.shape
        q, k, v = (t.view(B, T, self.heads, -1).transpose(1, 2) for t in self.qkv(chunk).chunk(3, dim=-1))
        k, v = torch.cat([past_k, k], dim=2), torch.cat([past_v, v], dim=2)
        bias = causal_upper_left(T, k.shape[2])
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)  # BUG: causal-diagonal
        return out.transpose(1, 2).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    return ChunkAttention().eval(), (torch.randn(2, 3, 16), torch.randn(2, 2, 4, 8), torch.randn(2, 2, 4, 8))
