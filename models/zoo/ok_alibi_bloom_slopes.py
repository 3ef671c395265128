"""BLOOM-style ALiBi: one slope per head, `base ** arange(1, H + 1)`, times each key's position, added to causal scores: correct.

The slopes are a power of an arange over the heads: one constant per head, not a table of
positions along the heads. (`slope * j` differs from `-slope * (i - j)` by a constant per
row, which the softmax cancels.)
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def alibi_bias(heads: int, length: int) -> torch.Tensor:
    base = torch.tensor(2 ** (-8 / heads))
    slopes = torch.pow(base, torch.arange(1, heads + 1))  # (H,)
    return slopes[:, None, None] * torch.arange(length)[None, None, :]  # (H, 1, T)


class AlibiAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.n_heads) + alibi_bias(self.n_heads, T)
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)
        weights = F.softmax(scores.masked_fill(causal, float("-inf")), dim=-1)
        return (weights @ v).transpose(1, 2).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    model = AlibiAttention().eval()
    return model, (torch.randn(2, 6, 16),)
