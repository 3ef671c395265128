"""Padding filled with a negative value too small to matter: `masked_fill(pad, -1.0)` on unit-scale scores.

-1 is within the range of ordinary scaled scores, so exp(-1) still leaves each [PAD] key
about a third of the weight of an average real key. The fill value must dominate every
score: use float("-inf") (or -1e9 / torch.finfo(dtype).min).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-value",)


class MaskedAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.to_qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.to_out = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        H, dk = self.n_heads, self.d_k
        qkv = self.to_qkv(x).view(B, T, 3, H, dk).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # (B, H, T, dk)
        scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(dk)
        pad = ~attention_mask.bool()[:, None, None, :]
        scores = scores.masked_fill(pad, -1.0)  # BUG: mask-value
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = MaskedAttention().eval()
    x = torch.randn(2, 6, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 0, 0], [1, 1, 0, 0, 0, 0]])
    return model, (x, attention_mask)
