"""Padding mask applied after the softmax with `masked_fill(pad, 0.0)`, without renormalizing.

The softmax has already spread each query's probability over every key, padding included.
Zeroing the padded keys afterwards removes their share, so a row of weights sums to less
than 1 and the output shrinks toward zero. Fix: fill the scores with -inf BEFORE the
softmax (or renormalize the weights by their new row sum).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-after-softmax",)


class PaddedSelfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        weights = torch.softmax(scores, dim=-1)
        pad = (attention_mask == 0)[:, None, None, :]  # (B, 1, 1, T_k), True at [PAD] keys
        weights = weights.masked_fill(pad, 0.0)  # BUG: mask-after-softmax
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.out(out)


def build():
    torch.manual_seed(0)
    model = PaddedSelfAttention().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    return model, (x, attention_mask)
