"""Hand-written softmax `exp(s) / exp(s).sum()` on large scores: exp overflows to inf and the weights become NaN.

Without subtracting the row maximum, any score above about 88 overflows float32's exp; the
row then divides inf by inf. Here the embeddings are not normalized, so the scores reach the
hundreds. Fix: `s = s - s.amax(dim=-1, keepdim=True)` before exp (or `torch.softmax`).
Secondary: the NaN weights reach the output -> ALSO = ("nan",).
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("unstable-softmax",)
ALSO: tuple[str, ...] = ("nan",)


class Attention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.query = nn.Linear(d_model, d_model)
        self.key = nn.Linear(d_model, d_model)
        self.value = nn.Linear(d_model, d_model)

    def forward(self, x):
        s = self.query(x) @ self.key(x).transpose(1, 2) / math.sqrt(x.size(-1))
        a = torch.exp(s) / torch.exp(s).sum(dim=-1, keepdim=True)  # BUG: unstable-softmax
        return a @ self.value(x)


def build():
    torch.manual_seed(0)
    model = Attention().eval()
    x = torch.randn(2, 5, 16) * 30  # unnormalized embeddings
    return model, (x,)
