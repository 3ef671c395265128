"""Correct: the 1/sqrt(d_head) factor is folded into the query projection's weights once, when the module is built.

Inference exports and some checkpoints do this so the forward pass saves a multiplication:
the scores come out of `q @ k.T` already scaled. Trap for a checker that looks for the
factor only in the forward pass: it is in `__init__`, as an in-place `mul_` on the weights.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PrescaledAttention(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2):
        super().__init__()
        self.heads, self.head_width = heads, width // heads
        self.query, self.key, self.value = nn.Linear(width, width), nn.Linear(width, width), nn.Linear(width, width)
        with torch.no_grad():
            self.query.weight.mul_(self.head_width ** -0.5)
            self.query.bias.mul_(self.head_width ** -0.5)

    def forward(self, x):
        b, t, width = x.shape
        def split(p):
            return p.view(b, t, self.heads, self.head_width).transpose(1, 2)
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        scores = (q @ k.transpose(-2, -1)).masked_fill(~causal, float("-inf"))
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, width)


def build():
    torch.manual_seed(0)
    return PrescaledAttention().eval(), (torch.randn(2, 6, 16),)
