"""Attention features centred with the batch mean (`x - x.mean(0)`), also in eval mode: every sample's output depends on the others.

Centring over dim 0 mixes the samples of a batch: what one user's request returns depends
on who else is in the batch. Statistics at inference must be per sample (or running
statistics, as BatchNorm keeps). Fix: centre over the features, `x - x.mean(-1, keepdim=True)`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class CentredAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        y = F.softmax(scores, dim=-1) @ v
        y = y - y.mean(0, keepdim=True)  # BUG: batch-leak
        return self.out(y)


def build():
    torch.manual_seed(0)
    model = CentredAttention().eval()
    return model, (torch.randn(3, 5, 16),)
