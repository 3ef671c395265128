"""`q @ k` without transposing the keys: (B, H, T, d_k) @ (B, H, T, d_k) raises because T = 6 != d_k = 8.

The score table is Q K^T: the product must contract the feature axis of both, so the keys
need `.transpose(-2, -1)`. Written as `q @ k`, matmul tries to contract q's d_k = 8 with
k's T = 6 and raises (had T equalled d_k it would silently compute nonsense). Fix:
`q @ k.transpose(-2, -1)`. The forward pass raises by design.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("shape-error",)


class Attention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k / math.sqrt(self.d_k)  # BUG: shape-error
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = Attention().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
