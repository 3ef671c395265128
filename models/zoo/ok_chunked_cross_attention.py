"""Chunked cross-attention (RETRO): each chunk of the text attends to its own retrieved neighbours.

Chunks are folded into the batch, `(b c)`, and the neighbours' padding mask differs between
the chunks of one sample: that is the neighbours differing, not heads in the wrong order.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class ChunkReader(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2, chunk: int = 3):
        super().__init__()
        self.heads, self.chunk = heads, chunk
        self.q, self.kv, self.out = nn.Linear(width, width), nn.Linear(width, 2 * width), nn.Linear(width, width)

    def forward(self, text, neighbours, neighbour_mask):
        b, n, d = text.shape
        c = n // self.chunk
        q = self.q(text).reshape(b * c, self.chunk, self.heads, -1).transpose(1, 2)
        k, v = self.kv(neighbours.reshape(b * c, -1, d)).chunk(2, dim=-1)
        k, v = (t.unflatten(-1, (self.heads, -1)).transpose(1, 2) for t in (k, v))
        keep = neighbour_mask.reshape(b * c, 1, 1, -1)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
        return text + self.out(y.transpose(1, 2).reshape(b, n, d))


def build():
    torch.manual_seed(0)
    mask = torch.ones(2, 2, 5, dtype=torch.bool)
    mask[0, 1, 3:] = False
    mask[1, 0, 2:] = False
    return ChunkReader().eval(), (torch.randn(2, 6, 16), torch.randn(2, 2, 5, 16), mask)
