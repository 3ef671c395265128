"""Time-interval attention whose gap unit is each user's own smallest gap, guarded where a user has none.

TiSASRec-style recommenders bucket the time gap between two interactions in units of the user's
smallest gap. A user whose interactions all share one timestamp has no gap at all: the unit
stays infinite, and `torch.where(isinf(unit), 1, unit)` guards it. One unit per user, so no
user's buckets depend on another's timestamps. Twin of batch_leak_time_gap_unit_over_batch.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class IntervalAttention(nn.Module):
    def __init__(self, items: int = 30, d_model: int = 16, buckets: int = 8):
        super().__init__()
        self.buckets = buckets
        self.item = nn.Embedding(items, d_model)
        self.interval = nn.Embedding(buckets + 1, 1)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, items: torch.Tensor, times: torch.Tensor) -> torch.Tensor:
        gaps = (times[:, :, None] - times[:, None, :]).abs()
        unit = gaps.masked_fill(gaps == 0, float("inf")).amin(dim=(1, 2), keepdim=True)
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
