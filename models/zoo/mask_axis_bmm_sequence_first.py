"""Additive key padding mask unsqueezed at the wrong place: (B*H, T, 1) on (B*H, T_q, T_k) bmm scores.

Sequence-first multi-head attention in the `torch.nn.MultiheadAttention` layout: scores are
(B*H, T_q, T_k). The student repeats the (B, T) key padding mask per head and unsqueezes
the LAST axis, so the -1e9 bias varies over the query axis (padded queries get a constant
row, real queries still read the padding). Fix: `unsqueeze(1)` -> (B*H, 1, T_k).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-axis",)


class SeqFirstMHA(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask):  # x: (T, B, d); key_padding_mask: (B, T), True = pad
        T, B, d = x.shape
        H, dk = self.n_heads, self.d_k
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.contiguous().view(T, B * H, dk).transpose(0, 1)  # (B*H, T, dk)
        k = k.contiguous().view(T, B * H, dk).transpose(0, 1)
        v = v.contiguous().view(T, B * H, dk).transpose(0, 1)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(dk)  # (B*H, T_q, T_k)
        bias = key_padding_mask.float().masked_fill(key_padding_mask, -1e9)
        bias = bias.repeat_interleave(H, dim=0).unsqueeze(2)  # (B*H, T, 1)
        scores = scores + bias  # BUG: mask-axis
        weights = torch.softmax(scores, dim=-1)
        out = torch.bmm(weights, v)  # (B*H, T, dk)
        out = out.transpose(0, 1).contiguous().view(T, B, d)
        return self.out_proj(out)


def build():
    torch.manual_seed(0)
    model = SeqFirstMHA().eval()
    x = torch.randn(6, 2, 16)
    key_padding_mask = torch.tensor([[False] * 6, [False, False, False, False, True, True]])
    return model, (x, key_padding_mask)
