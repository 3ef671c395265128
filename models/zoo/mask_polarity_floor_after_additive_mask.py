"""An encoder that adds its padding mask to the scores and keeps them above the dtype's minimum, with the mask's polarity inverted.

The additive mask is built as `keep * finfo.min` from a 1 = real / 0 = pad mask, so it pushes
the real tokens down and leaves the padding at 0; `torch.max(scores, finfo.min)` (a floor that
keeps the scores finite, as some library attentions do) changes nothing about that.
Fix: `(1.0 - keep) * torch.finfo(scores.dtype).min`. Twin of ok_floor_after_additive_mask.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-polarity",)


class FlooredEncoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, ids: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        floor = torch.finfo(scores.dtype).min
        additive = keep[:, None, None, :].float() * floor
        scores = torch.max(scores + additive, torch.full((), floor))  # BUG: mask-polarity
        mixed = scores.softmax(dim=-1) @ v
        return self.out(mixed.transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    ids = torch.randint(1, 30, (2, 6))
    keep = torch.ones(2, 6, dtype=torch.long)
    keep[1, 4:] = 0
    ids[1, 4:] = 0
    return FlooredEncoder().eval(), (ids, keep)
