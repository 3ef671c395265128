"""Multi-head attention as a loop over per-head modules whose outputs are concatenated along the features, `torch.cat(outs, dim=-1)`: correct.

Each head returns (B, T, d_head); concatenating on the last axis puts head h's features of
position t in columns h * d_head ... (h + 1) * d_head - 1 of row t, which is the merge
`transpose(1, 2).reshape(B, T, H * d_head)` does for a batched head axis.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class Head(nn.Module):
    def __init__(self, d_model: int, d_head: int):
        super().__init__()
        self.query = nn.Linear(d_model, d_head, bias=False)
        self.key = nn.Linear(d_model, d_head, bias=False)
        self.value = nn.Linear(d_model, d_head, bias=False)

    def forward(self, x):
        q, k, v = self.query(x), self.key(x), self.value(x)
        weights = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.shape[-1]), dim=-1)
        return weights @ v


class LoopMultiHead(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.heads = nn.ModuleList(Head(d_model, d_model // n_heads) for _ in range(n_heads))
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        outs = [head(x) for head in self.heads]
        y = torch.cat(outs, dim=-1)
        return x + self.proj(y)


def build():
    torch.manual_seed(0)
    return LoopMultiHead().eval(), (torch.randn(2, 6, 16),)
