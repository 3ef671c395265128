"""Padding applied to the weights after the softmax with `torch.where(keep, weights, 0)`, not renormalized.

Sequence-first (T, B, d) single-head attention with bmm. The key padding mask is applied by
`torch.where` on the normalized weights, so the weight the softmax gave to [PAD] keys is
simply lost and each row of a padded sequence sums to less than 1. Fix: mask the scores
with -inf before the softmax.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-after-softmax",)


class SeqFirstAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.d_k = d_model
        self.in_proj = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, key_padding_mask):  # x: (T, B, d); key_padding_mask: (B, T), True = pad
        q, k, v = self.in_proj(x).transpose(0, 1).chunk(3, dim=-1)  # each (B, T, d)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.d_k)
        weights = torch.softmax(scores, dim=-1)
        keep = ~key_padding_mask.unsqueeze(1)  # (B, 1, T_k)
        weights = torch.where(keep, weights, torch.zeros_like(weights))  # BUG: mask-after-softmax
        return torch.bmm(weights, v).transpose(0, 1)  # (T, B, d)


def build():
    torch.manual_seed(0)
    model = SeqFirstAttention().eval()
    x = torch.randn(5, 2, 16)
    key_padding_mask = torch.tensor([[False, False, False, True, True], [False] * 5])
    return model, (x, key_padding_mask)
