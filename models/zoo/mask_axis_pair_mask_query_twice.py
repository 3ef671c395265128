"""A pair padding mask that ANDs the query-side padding with itself: it hides padded query rows and no padded key.

The pair mask is `valid[:, None, :, None] & valid[:, None, None, :]`: query-side AND key-side.
Here both operands are the query side, `valid[:, None, :, None]` twice, so the real queries
still read the padded keys. Fix: the second operand is `valid[:, None, None, :]`.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("mask-axis",)


class PairMaskedAttention(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, input_ids, valid):
        x = self.embed(input_ids)
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)
        pair = valid[:, None, :, None] & valid[:, None, :, None]
        scores = scores.masked_fill(~pair, torch.finfo(scores.dtype).min)  # BUG: mask-axis
        return (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, d)


def build():
    torch.manual_seed(0)
    model = PairMaskedAttention().eval()
    input_ids = torch.tensor([[4, 9, 2, 7, 5, 3], [6, 8, 1, 0, 0, 0]])
    return model, (input_ids, input_ids != 0)
