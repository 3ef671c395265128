"""Multi-head attention as a loop over per-head modules whose outputs are concatenated along TIME, `torch.cat(outs, dim=1).view(B, T, D)`: rows mix positions and heads.

Each head returns (B, T, d_head). Concatenated on dim=1 they form (B, H * T, d_head), head 0's
T rows first, and viewing that as (B, T, H * d_head) packs H consecutive rows into one: row t
holds rows H*t ... H*t + H - 1 of the concatenation, several positions of one head (or of two
neighbouring heads), not position t of every head. The shapes fit, so nothing fails. Fix:
`torch.cat(outs, dim=-1)`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("head-merge",)


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
        B, T, D = x.shape
        outs = [head(x) for head in self.heads]
        y = torch.cat(outs, dim=1).view(B, T, D)  # BUG: head-merge
        return x + self.proj(y)


def build():
    torch.manual_seed(0)
    return LoopMultiHead().eval(), (torch.randn(2, 6, 16),)
