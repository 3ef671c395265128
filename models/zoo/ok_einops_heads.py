"""Heads folded into the batch with einops, `(b h)`, and unfolded in the same order: correct.

Twin of head_merge_einops_head_major.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange

EXPECTED: tuple[str, ...] = ()


class FoldedHeads(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        q, k, v = (rearrange(t, "b n (h e) -> (b h) n e", h=self.n_heads) for t in self.qkv(x).chunk(3, dim=-1))
        weights = F.softmax(q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]), dim=-1)
        return rearrange(weights @ v, "(b h) n e -> b n (h e)", h=self.n_heads)


def build():
    torch.manual_seed(0)
    model = FoldedHeads().eval()
    return model, (torch.randn(3, 5, 16),)
