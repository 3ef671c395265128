"""A hand-written masked softmax that subtracts the row mean, not its maximum.

A row mean is no bound on the scores: the largest exponent stays as large as the scores' spread,
and `exp` overflows on sharp rows. Fix: `scores.amax(-1, keepdim=True)`, guarded the same way.
Twin of ok_softmax_guarded_row_max.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("unstable-softmax",)


def masked_softmax(scores: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    scores = scores.masked_fill(~keep, float("-inf"))
    peak = scores.masked_fill(~keep, 0.0).mean(-1, keepdim=True)
    peak = torch.where(torch.isfinite(peak), peak, torch.zeros_like(peak))
    e = torch.exp(scores - peak)  # BUG: unstable-softmax
    return e / e.sum(-1, keepdim=True).clamp(min=1e-12)


class GuardedEncoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, ids: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(self.embed(ids)).chunk(3, dim=-1)
        weights = masked_softmax(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), keep[:, None, :])
        return weights @ v


def build():
    torch.manual_seed(0)
    keep = torch.ones(2, 6, dtype=torch.bool)
    keep[1, 4:] = False
    return GuardedEncoder().eval(), (torch.randint(0, 30, (2, 6)), keep)
