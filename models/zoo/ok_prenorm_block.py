"""Correct: a pre-norm Transformer block, `x + MHA(LN(x))` then `x + FFN(LN(x))`, with `nn.LayerNorm(d)`.

Trap for a checker that confuses pre- and post-norm or expects a norm after each residual:
the statistics are over the feature axis only, and the residual stream is never normalized
inside the block.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PreNormBlock(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, d_ff: int = 32):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))

    def attention(self, h):
        B, T, d = h.shape
        q, k, v = self.qkv(h).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_k), dim=-1)
        return self.proj((weights @ v).transpose(1, 2).reshape(B, T, d))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        x = x + self.ffn(self.ln2(x))
        return x


def build():
    torch.manual_seed(0)
    model = PreNormBlock().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
