"""Padding mask filled with 0 before the softmax: `scores.masked_fill(pad, 0)`.

A score of 0 is an ordinary score, not a forbidden one: exp(0) = 1, so the [PAD] keys keep
a weight comparable to the real keys. Fix: `masked_fill(pad, float("-inf"))` (or a very
negative number such as -1e9) so their weights become exactly 0.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-value",)


class PaddedSelfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q, k, v = self.split(self.q_proj(x)), self.split(self.k_proj(x)), self.split(self.v_proj(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        pad = attention_mask[:, None, None, :] == 0  # (B, 1, 1, T_k)
        scores = scores.masked_fill(pad, 0)  # BUG: mask-value
        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(B, T, d)
        return self.out_proj(out)


def build():
    torch.manual_seed(0)
    model = PaddedSelfAttention().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    return model, (x,), {"attention_mask": attention_mask}
