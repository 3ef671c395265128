"""A hand-written layer norm with `torch.var_mean(..., correction=0)`: the biased variance, dividing by d: correct.

Twin of layernorm_variance_var_mean.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class NormedAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(d_model))
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=-1, keepdim=True, correction=0)
        x = (x - mean) / torch.sqrt(var + 1e-5) * self.gain
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return F.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), dim=-1) @ v


def build():
    torch.manual_seed(0)
    model = NormedAttention().eval()
    return model, (torch.randn(2, 6, 16),)
