"""Sequences packed into one row for attention without a block-diagonal (document) mask: every sample attends to the others.

Flattening (B, T, d) to one sequence of B·T tokens is how packed training saves padding, but
then the attention must keep each token inside its own document. Without that mask, sample
0's outputs read sample 1's tokens: the fold made them one sequence. Fix: keep the samples apart
(attend over (B, T, C) as it is), or mask keys of other documents,
`doc = torch.arange(B).repeat_interleave(T)` and `scores.masked_fill(doc[:, None] != doc[None, :], -inf)`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class PackedAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        packed = x.reshape(1, B * T, C)  # BUG: batch-leak
        q, k, v = self.qkv(packed).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(C)
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    model = PackedAttention().eval()
    return model, (torch.randn(2, 4, 16),)
