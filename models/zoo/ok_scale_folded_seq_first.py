"""Correct: sequence-first causal attention that folds 1/sqrt(d_head) into q before moving the heads with movedim.

Trap for a checker that follows the query back only through view/transpose: the scaling sits
on the (T, B, d) projection, behind a `view` and a `movedim`, not on the scores.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class FoldedScaleAttention(nn.Module):
    def __init__(self, width: int = 24, heads: int = 3):
        super().__init__()
        self.heads, self.head_width = heads, width // heads
        self.q, self.k, self.v = nn.Linear(width, width), nn.Linear(width, width), nn.Linear(width, width)
        self.o = nn.Linear(width, width)

    def forward(self, x):                                       # x (T, B, width)
        t, b, width = x.shape
        def heads(p):
            return p.view(t, b, self.heads, self.head_width).movedim(0, 2)   # (B, H, T, d_head)
        q = heads(self.q(x) * self.head_width ** -0.5)
        k, v = heads(self.k(x)), heads(self.v(x))
        keep = torch.ones(t, t, dtype=torch.bool).tril()
        scores = torch.where(keep, q @ k.mT, torch.finfo(x.dtype).min)
        y = scores.softmax(-1) @ v
        return self.o(y.movedim(2, 0).reshape(t, b, width))


class Model(nn.Module):
    def __init__(self, vocab: int = 30, width: int = 24):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.attention = FoldedScaleAttention(width)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, ids):                                     # ids (T, B)
        x = self.embed(ids)
        return self.head(x + self.attention(self.norm(x)))


def build():
    torch.manual_seed(0)
    return Model().eval(), (torch.randint(0, 30, (9, 2)),)
