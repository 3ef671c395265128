"""Correct: hand-written stable softmax (row max subtracted) after a -inf `masked_fill` key padding mask.

Trap for a checker that flags every hand-written exp: the maximum is subtracted along the
key axis before `exp`, the -inf fill gives exactly-zero weights to the [PAD] keys, and every
query has at least one real key, so no row is NaN.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


def masked_softmax(scores, pad):
    scores = scores.masked_fill(pad, float("-inf"))
    e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))
    return e / e.sum(dim=-1, keepdim=True)


class HandWrittenAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q = self.W_q(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.W_k(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.W_v(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        weights = masked_softmax(scores, attention_mask[:, None, None, :] == 0)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(B, T, d)
        return self.W_o(out)


def build():
    torch.manual_seed(0)
    model = HandWrittenAttention().eval()
    x = torch.randn(2, 6, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]])
    return model, (x, attention_mask)
