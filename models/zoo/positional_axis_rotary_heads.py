"""Rotary cos/sin tables broadcast along the head axis: `cos.unsqueeze(1)` applied to q, k laid out (B, H, T, d_k).

`apply_rotary` was copied from code whose q and k are (B, T, H, d_k), where the (T, 1, d_k)
table lines T up with the time axis. Here q and k are (B, H, T, d_k): the (T, 1, d_k) table
lines its positions up with the HEAD axis (it broadcasts only because T = H = 4), so head h
is rotated by position h's angles at every time step and the rotation carries no position.
Fix: `cos[None, None]` / `sin[None, None]` (shape (1, 1, T, d_k)).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("positional-axis",)


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary(x, cos, sin):
    return x * cos.unsqueeze(1) + rotate_half(x) * sin.unsqueeze(1)  # BUG: positional-axis


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
        cos, sin = self.cos_cached[:T], self.sin_cached[:T]  # (T, d_k)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        out = torch.softmax(scores, dim=-1) @ v
        return self.out(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = RotaryAttention().eval()
    x = torch.randn(2, 4, 16)  # T = 4 = n_heads, so the wrong broadcast does not raise
    return model, (x,)
