"""Correct: sequence-first (T, B, d) multi-head self-attention in nn.MultiheadAttention's bmm layout.

Trap for a checker that assumes batch-first: the batch is axis 1, the heads are folded into
the batch of the bmm as (B*H, T, d_k) via `view(T, B*H, d_k).transpose(0, 1)`, and merged
back with `transpose(0, 1).view(T, B, d)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class SeqFirstMHA(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, key_padding_mask):  # x: (T, B, d); key_padding_mask: (B, T), True = pad
        T, B, d = x.shape
        H, dk = self.n_heads, self.d_k
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.contiguous().view(T, B * H, dk).transpose(0, 1)
        k = k.contiguous().view(T, B * H, dk).transpose(0, 1)
        v = v.contiguous().view(T, B * H, dk).transpose(0, 1)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(dk)  # (B*H, T_q, T_k)
        scores = scores.view(B, H, T, T).masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        weights = torch.softmax(scores.view(B * H, T, T), dim=-1)
        out = torch.bmm(weights, v).transpose(0, 1).contiguous().view(T, B, d)
        return self.norm(x + self.out_proj(out))


def build():
    torch.manual_seed(0)
    model = SeqFirstMHA().eval()
    x = torch.randn(5, 2, 16)
    key_padding_mask = torch.tensor([[False] * 5, [False, False, False, True, True]])
    return model, (x, key_padding_mask)
