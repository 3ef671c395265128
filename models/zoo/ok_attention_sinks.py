"""Causal attention with a learned sink logit per head (gpt-oss style): the sink column takes probability mass and is dropped before the values: correct.

The softmax normalizes over the keys plus one sink column; `probs[..., :-1]` drops the
sink's weight, so the rows sum to less than 1 over the real keys on purpose.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class SinkAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.sinks = nn.Parameter(torch.randn(n_heads))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        scores = scores.masked_fill(~causal, float("-inf"))
        sink = self.sinks.view(1, -1, 1, 1).expand(B, -1, T, 1)
        probs = torch.cat([scores, sink], dim=-1).softmax(dim=-1)[..., :-1]
        return (probs @ v).transpose(1, 2).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    model = SinkAttention().eval()
    return model, (torch.randn(2, 6, 16),)
