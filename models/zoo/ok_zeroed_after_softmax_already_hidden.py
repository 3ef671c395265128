"""Padded keys hidden with -inf before the softmax and zeroed again after it (ESPnet style): correct.

The second `masked_fill(mask, 0.0)` only writes 0 where the softmax already gave 0 (and guards
against NaN rows), so every row still sums to 1 over the real keys.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class Encoder(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, pad):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        hidden = pad[:, None, :]  # (B, 1, T): True at padded keys
        scores = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(hidden, float("-inf"))
        weights = F.softmax(scores, dim=-1).masked_fill(hidden, 0.0)
        return weights @ v


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    return model, (torch.randn(2, 6, 16), pad)
