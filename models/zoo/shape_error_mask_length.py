"""Padding mask of length 8 (tokenizer max_length) applied to scores of length 6: masked_fill raises.

The attention_mask was built for sequences padded to max_length = 8, but the inputs were
trimmed to the longest sequence in the batch (T = 6). The (B, 1, 1, 8) mask cannot broadcast
against the (B, H, 6, 6) score table. Fix: build the mask from the same padded batch as the
inputs (or slice it to `[:, :T]`). The forward pass raises by design.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("shape-error",)


class PaddedAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.d_k)  # (B, H, 6, 6)
        pad = attention_mask[:, None, None, :] == 0  # (B, 1, 1, 8)
        scores = scores.masked_fill(pad, float("-inf"))  # BUG: shape-error
        weights = torch.softmax(scores, dim=-1)
        return self.out(torch.matmul(weights, v).transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = PaddedAttention().eval()
    x = torch.randn(2, 6, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1, 1, 0, 0], [1, 1, 1, 1, 0, 0, 0, 0]])
    return model, (x,), {"attention_mask": attention_mask}
