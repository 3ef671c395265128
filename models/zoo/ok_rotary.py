"""Correct: rotary position embedding on q, k laid out (B, H, T, d_k), tables broadcast as (1, 1, T, d_k).

Trap for a checker that matches axes by size: T = H = 4 here, yet the cos/sin tables vary
along the time axis only (the same rotation for every head and batch item), and the
attention scores depend only on relative positions.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary(x, cos, sin):  # x: (B, H, T, d_k); cos, sin: (T, d_k)
    return x * cos[None, None] + rotate_half(x) * sin[None, None]


class RotaryAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4, max_len: int = 32):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.d_k, 2).float() / self.d_k))
        freqs = torch.outer(torch.arange(max_len).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)  # (max_len, d_k)
        self.register_buffer("cos_cached", emb.cos())
        self.register_buffer("sin_cached", emb.sin())

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        cos, sin = self.cos_cached[:T], self.sin_cached[:T]
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        out = torch.softmax(scores, dim=-1) @ v
        return self.out(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = RotaryAttention().eval()
    x = torch.randn(2, 4, 16)
    return model, (x,)
