"""A prefix-LM mask whose causal part is built with `tril(diagonal=1)`: after the prefix, each query sees the next token.

The prefix (first P positions) is bidirectional by design; the rest must be causal. The
student's keep-mask starts from `tril(ones, diagonal=1)`, so every query after the prefix
also reads key t + 1. Fix: `torch.tril(ones)`.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("causal-leak",)


class PrefixLMAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, prefix: int = 3):
        super().__init__()
        self.h, self.prefix = n_heads, prefix
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        heads = lambda t: t.view(B, T, self.h, d // self.h).transpose(1, 2)  # noqa: E731
        q, k, v = heads(self.wq(x)), heads(self.wk(x)), heads(self.wv(x))
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        mask[: self.prefix, : self.prefix] = True
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.h)
        scores = scores.masked_fill(mask.logical_not(), float("-inf"))  # BUG: causal-leak
        out = scores.softmax(dim=-1) @ v
        return self.wo(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = PrefixLMAttention().eval()
    return model, (torch.randn(2, 7, 16),)
