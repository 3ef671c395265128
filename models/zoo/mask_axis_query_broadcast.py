"""Key padding mask shaped (B, 1, T, 1): it broadcasts over the QUERY axis of the (B, H, T_q, T_k) scores.

`attention_mask[:, None, :, None]` puts the padding pattern on the query axis, so the rows of
the padded QUERIES are filled with -1e9 (they become uniform) while every real query still
reads the [PAD] keys. The mask must vary over the key axis: `attention_mask[:, None, None, :]`,
shape (B, 1, 1, T).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-axis",)


class PaddedAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        mask = attention_mask[:, None, :, None]  # (B, 1, T, 1)
        scores = scores.masked_fill(mask == 0, -1e9)  # BUG: mask-axis
        weights = scores.softmax(dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = PaddedAttention().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    return model, (x, attention_mask)
