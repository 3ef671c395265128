"""Heads folded into the batch batch-major with einops, `(b h)`, and unfolded head-major, `(h b)`: samples trade heads.

`rearrange(t, 'b n (h e) -> (b h) n e')` puts the heads of sample 0 first; unfolding with
`'(h b) n e -> b n (h e)'` reads that axis as if the samples came first, so each sample's
output is built from heads of other samples. Fix: unfold with `'(b h) n e -> b n (h e)'`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

EXPECTED: tuple[str, ...] = ("head-merge",)


class FoldedHeads(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        q, k, v = (rearrange(t, "b n (h e) -> (b h) n e", h=self.n_heads) for t in self.qkv(x).chunk(3, dim=-1))
        weights = F.softmax(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), dim=-1)
        return rearrange(weights @ v, "(h b) n e -> b n (h e)", h=self.n_heads)  # BUG: head-merge


def build():
    torch.manual_seed(0)
    model = FoldedHeads().eval()
    return model, (torch.randn(3, 5, 16),)
