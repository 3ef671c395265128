"""`F.dropout(weights, p)` on the attention weights without `training=self.training`: still active in eval mode.

`torch.nn.functional.dropout` defaults to `training=True`; it does not know about the
module's `.eval()`. So at inference a random 10% of the attention weights are zeroed and
the rest scaled by 1/0.9, and two identical forward passes give different outputs. Fix:
`F.dropout(weights, self.p, training=self.training)` or an `nn.Dropout` submodule.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("dropout-eval",)


class SelfAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, p: float = 0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.p = p
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        weights = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_k), dim=-1)
        weights = F.dropout(weights, self.p)  # BUG: dropout-eval
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = SelfAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
