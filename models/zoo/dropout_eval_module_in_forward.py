"""Attention dropout built inside `forward` as `nn.Dropout(p)(weights)`: a new module each call, in training mode.

`model.eval()` switches the modules the model owns; a module made during the forward pass is
not one of them, so this dropout stays active at inference and the outputs are random.
Fix: build `self.drop = nn.Dropout(p)` once in `__init__` and call `self.drop(weights)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("dropout-eval",)


class SelfAttention(nn.Module):
    def __init__(self, width: int = 16, heads: int = 2, p: float = 0.1):
        super().__init__()
        self.heads, self.p = heads, p
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)

    def forward(self, x):
        b, t, width = x.shape
        q, k, v = self.qkv(x).reshape(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1)
        weights = nn.Dropout(self.p)(weights)  # BUG: dropout-eval
        return self.out((weights @ v).transpose(1, 2).reshape(b, t, width))


def build():
    torch.manual_seed(0)
    return SelfAttention().eval(), (torch.randn(2, 6, 16),)
