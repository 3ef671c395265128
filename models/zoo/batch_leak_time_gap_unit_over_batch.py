"""Time-interval attention whose gap unit is the smallest gap of the whole batch, guarded where there is none.

TiSASRec-style recommenders bucket the time gap between two interactions in units of the user's
smallest gap. A user whose interactions all share one timestamp has no gap at all: the unit
stays infinite, and `torch.where(isinf(unit), 1, unit)` guards it. But `amin()` without dims
takes one unit for the whole batch, so every user's buckets move with the other users'
timestamps. Fix: `amin(dim=(1, 2), keepdim=True)`. Twin of ok_time_gap_unit_per_user.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("batch-leak",)


class IntervalAttention(nn.Module):
    def __init__(self, items: int = 30, d_model: int = 16, buckets: int = 8):
        super().__init__()
        self.buckets = buckets
        self.item = nn.Embedding(items, d_model)
        self.interval = nn.Embedding(buckets + 1, 1)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, items: torch.Tensor, times: torch.Tensor) -> torch.Tensor:
        gaps = (times[:, :, None] - times[:, None, :]).abs()
        unit = gaps.masked_fill(gaps == 0, float("inf")).amin()  # BUG: batch-leak
        unit = torch.where(torch.isinf(unit), torch.ones_like(unit), unit)
        bucket = (gaps / unit).floor().clamp(max=self.buckets).long()
        x = self.item(items)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1]) + self.interval(bucket).squeeze(-1)
        return x + scores.softmax(dim=-1) @ v


def build():
    torch.manual_seed(0)
    times = torch.cumsum(torch.rand(3, 6) * 100, dim=1)
    return IntervalAttention().eval(), (torch.randint(0, 30, (3, 6)), times)
