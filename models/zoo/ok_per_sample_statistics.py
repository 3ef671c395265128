"""Attention features centred per sample over their features (`y - y.mean(-1)`): correct, each sample on its own.

Twin of batch_leak_eval_batch_statistics.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class CentredAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        y = F.softmax(scores, dim=-1) @ v
        y = y - y.mean(-1, keepdim=True)
        return self.out(y)


def build():
    torch.manual_seed(0)
    model = CentredAttention().eval()
    return model, (torch.randn(3, 5, 16),)
