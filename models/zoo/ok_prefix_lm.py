"""Correct: a prefix-LM mask: the first P positions attend to each other both ways, the rest causally.

Trap for a checker that calls every query seeing a later key a causal leak: in the prefix
that is the design (T5-style prefix language models, UniLM); after it, the mask is causal.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


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
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        mask[: self.prefix, : self.prefix] = True  # bidirectional prefix
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.h)
        scores = scores.masked_fill(mask.logical_not(), float("-inf"))
        out = scores.softmax(dim=-1) @ v
        return self.wo(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = PrefixLMAttention().eval()
    return model, (torch.randn(2, 7, 16),)
