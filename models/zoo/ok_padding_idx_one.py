"""Correct: pad id 1 (`nn.Embedding(..., padding_idx=1)`, as in RoBERTa and fairseq), right padding, pair mask.

Trap for a checker that takes token 0 for padding: here 0 is an ordinary token and 1 pads.
The mask hides padded keys from every query and the padded queries' own rows, so the
padded rows see no key at all; they are padding, not real queries, and their rows are
filled with `finfo.min` so they stay finite.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()
PAD = 1


class Encoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.tokens = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, ids):
        x = self.tokens(ids)
        B, T, d = x.shape
        split = lambda t: t.view(B, T, self.h, self.dk).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        keep = ids.ne(PAD)
        both = keep.unsqueeze(1).unsqueeze(2) & keep.unsqueeze(1).unsqueeze(3)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.dk)
        scores = scores.masked_fill(both.logical_not(), torch.finfo(scores.dtype).min)
        out = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, d)
        return self.norm(x + out)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    ids = torch.tensor([[0, 5, 8, 3, 9, 2], [7, 0, 4, PAD, PAD, PAD]])
    return model, (ids,)
