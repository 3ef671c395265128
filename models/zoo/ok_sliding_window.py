"""Correct: causal sliding-window attention: query t sees keys t - w + 1 .. t (Mistral-style local attention).

Trap for a checker that reads only prefix-shaped causal masks: the visible keys of a row are
a window, hidden on both sides, and the window never reaches past the query.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ()


class LocalAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, window: int = 3):
        super().__init__()
        self.n_heads, self.window = n_heads, window
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, T, self.n_heads, -1).permute(0, 2, 1, 3) for t in (q, k, v))
        i = torch.arange(T).unsqueeze(-1)
        j = torch.arange(T).unsqueeze(0)
        allowed = (j <= i) & (j > i - self.window)
        scores = q @ k.mT / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(~allowed, float("-inf"))
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y.permute(0, 2, 1, 3).reshape(B, T, C))


def build():
    torch.manual_seed(0)
    model = LocalAttention().eval()
    return model, (torch.randn(2, 7, 16),)
