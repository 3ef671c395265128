"""Hand-written softmax `exp(scores) / exp(scores).sum(-1)` without subtracting the row maximum.

The result is mathematically a softmax over the keys, but exp overflows to inf for scores
above ~88 in float32 (~11 in float16), and inf / inf is NaN. Subtracting the row maximum
first changes nothing mathematically and keeps every exponent <= 0. Fix:
`e = torch.exp(scores - scores.amax(dim=-1, keepdim=True))` (or just `torch.softmax`).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("unstable-softmax",)


class HandSoftmaxAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        e = torch.exp(scores)  # BUG: unstable-softmax
        weights = e / e.sum(dim=-1, keepdim=True)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = HandSoftmaxAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
