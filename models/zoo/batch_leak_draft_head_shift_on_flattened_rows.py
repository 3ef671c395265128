"""A speculative-decoding draft head that shifts the target model's features on the flattened (B·T, D) rows.

Position t of the draft should read the target's feature of position t - 1, but the shift is
taken after flattening the samples with their positions: each sample's first position reads
the previous sample's last feature. Fix: shift along time, `F.pad(h[:, :-1], (0, 0, 1, 0))`.
Twin of ok_draft_head_shift_along_time.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("batch-leak",)


class DraftHead(nn.Module):
    def __init__(self, vocab: int = 24, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.fuse = nn.Linear(2 * d_model, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def shifted(self, h: torch.Tensor) -> torch.Tensor:
        B, T, D = h.shape
        return F.pad(h.reshape(B * T, D)[:-1], (0, 0, 1, 0)).view(B, T, D)  # BUG: batch-leak

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
