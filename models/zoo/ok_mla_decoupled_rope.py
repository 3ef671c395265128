"""Multi-head latent attention with a decoupled rotary part (DeepSeek style): the scores are a content product plus a rope product, scaled by 1/sqrt(d_nope + d_rope): correct.

`q_nope · k_nope + q_pe · k_pe` is one product of the concatenated features, so its d_k is
the sum of both widths.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class LatentAttention(nn.Module):
    def __init__(self, d_model: int = 32, n_heads: int = 2, nope: int = 16, rope: int = 8, rank: int = 8):
        super().__init__()
        self.h, self.nope, self.rope = n_heads, nope, rope
        self.wq = nn.Linear(d_model, n_heads * (nope + rope), bias=False)
        self.down = nn.Linear(d_model, rank + rope, bias=False)  # the latent and a shared rope key
        self.up = nn.Linear(rank, n_heads * (nope + nope), bias=False)
        self.scale = (nope + rope) ** -0.5

    def forward(self, x):
        B, T, _ = x.shape
        q_nope, q_pe = self.wq(x).view(B, T, self.h, self.nope + self.rope).split([self.nope, self.rope], dim=-1)
        latent, k_pe = self.down(x).split([self.down.out_features - self.rope, self.rope], dim=-1)
        k_nope, v = self.up(latent).view(B, T, self.h, 2 * self.nope).split([self.nope, self.nope], dim=-1)
        scores = torch.einsum("bthd,bshd->bhts", q_nope, k_nope) + torch.einsum("bthd,bsd->bhts", q_pe, k_pe)
        scores = (scores * self.scale).masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        return torch.einsum("bhts,bshd->bthd", scores.softmax(dim=-1), v).reshape(B, T, -1)


def build():
    torch.manual_seed(0)
    model = LatentAttention().eval()
    return model, (torch.randn(2, 6, 32),)
