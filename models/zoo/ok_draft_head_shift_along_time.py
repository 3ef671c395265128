"""A speculative-decoding draft head that shifts the target model's features one step along time, per sample.

Position t of the draft reads the target's feature of position t - 1: `F.pad(h[:, :-1], (0, 0,
1, 0))` shifts along the time axis of `(B, T, D)`, so each sample's first position gets zeros.
Twin of batch_leak_draft_head_shift_on_flattened_rows.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class DraftHead(nn.Module):
    def __init__(self, vocab: int = 24, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.fuse = nn.Linear(2 * d_model, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def shifted(self, h: torch.Tensor) -> torch.Tensor:
        return F.pad(h[:, :-1], (0, 0, 1, 0))

    def forward(self, ids: torch.Tensor, target_hidden: torch.Tensor) -> torch.Tensor:
        x = self.fuse(torch.cat([self.embed(ids), self.shifted(target_hidden)], dim=-1))
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        T = ids.shape[1]
        scores = (q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])).masked_fill(
            torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return self.head(x + scores.softmax(dim=-1) @ v)


def build():
    torch.manual_seed(0)
    return DraftHead().eval(), (torch.randint(0, 24, (3, 7)), torch.randn(3, 7, 16))
