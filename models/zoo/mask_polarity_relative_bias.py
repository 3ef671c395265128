"""A relative-position bias beside a key padding mask applied with the arguments of `torch.where` swapped.

`torch.where(key_padding_mask[:, None, None, :], -inf, scores)` hides the padding. Written as
`torch.where(key_padding_mask[...], scores, -inf)` it keeps the scores only at the padding and
hides every real key; the learned bias added before it is fine. Fix: swap the two values back.
Secondary: the unpadded sample sees no key -> ALSO = ("fully-masked-row", "nan").
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("mask-polarity",)
ALSO: tuple[str, ...] = ("fully-masked-row", "nan")


class RelativeAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, max_distance: int = 8):
        super().__init__()
        self.h, self.dk, self.max_distance = n_heads, d_model // n_heads, max_distance
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.rel = nn.Embedding(2 * max_distance + 1, n_heads)

    def forward(self, x, key_padding_mask):  # key_padding_mask: (B, T), True = padding
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T)
        distance = (pos[None, :] - pos[:, None]).clamp(-self.max_distance, self.max_distance) + self.max_distance
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.dk) + self.rel(distance).permute(2, 0, 1)
        scores = torch.where(key_padding_mask[:, None, None, :], scores, float("-inf"))  # BUG: mask-polarity
        return (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, -1)


def build():
    torch.manual_seed(0)
    model = RelativeAttention().eval()
    key_padding_mask = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    return model, (torch.randn(2, 6, 16), key_padding_mask)
