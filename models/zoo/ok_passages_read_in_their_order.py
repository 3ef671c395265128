"""Fusion-in-decoder reading: passages encoded passage-major and read back in the same order: correct.

`passages.transpose(0, 1).reshape(P * B, L)` lays the rows out passage by passage (row p·B + b),
and `reshape(P, B, L, d).transpose(0, 1)` undoes that order before the passages of each question
are joined into its memory.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PassageReader(nn.Module):
    def __init__(self, vocab: int = 30, width: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.encode = nn.Linear(width, width)

    def forward(self, passages, passage_mask, question):
        B, P, L = passages.shape
        rows = passages.transpose(0, 1).reshape(P * B, L)
        real = passage_mask.transpose(0, 1).reshape(P * B, L, 1)
        encoded = torch.tanh(self.encode(self.embed(rows))) * real
        memory = encoded.reshape(P, B, L, -1).transpose(0, 1).reshape(B, P * L, encoded.shape[-1])
        query = self.embed(question).mean(1)  # (B, d): the question reads its passages
        scores = (memory @ query[:, :, None] / math.sqrt(memory.shape[-1])).squeeze(-1)
        weights = scores.masked_fill(passage_mask.reshape(B, P * L) == 0, float("-inf")).softmax(dim=-1)
        return (weights[..., None] * memory).sum(1)


def build():
    torch.manual_seed(0)
    passage_mask = torch.ones(2, 3, 4, dtype=torch.long)
    passage_mask[1, 2, 3:] = 0  # the last passage of question 1 is one token short
    passages = torch.randint(1, 30, (2, 3, 4)) * passage_mask
    return PassageReader().eval(), (passages, passage_mask, torch.randint(1, 30, (2, 5)))
