"""Correct: a bidirectional local-attention encoder: each token sees the tokens within `radius` on both sides.

Trap for a checker that takes every banded mask for a causal one: the window follows the
query in lockstep and reaches past it, but it reaches equally far into the past, so the mask
is symmetric (key j is visible to query i exactly when i is visible to j): it has no
direction, and nothing in it is a future.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class BandedSelfAttention(nn.Module):
    def __init__(self, width: int = 16, heads: int = 4, radius: int = 2):
        super().__init__()
        self.heads, self.radius = heads, radius
        self.query, self.key, self.value = (nn.Linear(width, width) for _ in range(3))
        self.merge = nn.Linear(width, width)

    def forward(self, frames):
        batch, length, width = frames.shape
        def split(t):
            return t.view(batch, length, self.heads, -1).transpose(1, 2)
        q, k, v = split(self.query(frames)), split(self.key(frames)), split(self.value(frames))
        offsets = torch.arange(length)[:, None] - torch.arange(length)[None, :]
        outside = offsets.abs() > self.radius
        logits = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(q.size(-1))
        logits = logits.masked_fill(outside, -1e9)
        mixed = torch.matmul(logits.softmax(dim=-1), v)
        return self.merge(mixed.transpose(1, 2).reshape(batch, length, width))


class Tagger(nn.Module):
    def __init__(self, n_features: int = 6, width: int = 16, n_tags: int = 5):
        super().__init__()
        self.embed = nn.Linear(n_features, width)
        self.attend = BandedSelfAttention(width)
        self.norm = nn.LayerNorm(width)
        self.tags = nn.Linear(width, n_tags)

    def forward(self, frames):
        h = self.embed(frames)
        return self.tags(self.norm(h + self.attend(h)))


def build():
    torch.manual_seed(0)
    return Tagger().eval(), (torch.randn(2, 9, 6),)
