"""Correct: a sequence-first encoder transposes its (T, B) padding mask to the (B, T) nn.MultiheadAttention wants.

Trap for a checker that places a square mask by position: with T = B both orders fit, and
only the axes the mask carries from the (T, B) token ids say which dim is the batch.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()
PAD = 1


class SequenceFirstEncoder(nn.Module):
    def __init__(self, vocab: int = 24, width: int = 16, heads: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, width, padding_idx=PAD)
        self.positions = nn.Parameter(torch.randn(32, 1, width) * 0.1)
        self.attention = nn.MultiheadAttention(width, heads)
        self.norm = nn.LayerNorm(width)

    def forward(self, tokens):                       # tokens (T, B)
        x = self.embed(tokens) + self.positions[: tokens.shape[0]]
        ignore = tokens.eq(PAD)
        mixed, _ = self.attention(x, x, x, key_padding_mask=ignore.t(), need_weights=False)
        return self.norm(x + mixed)


def build():
    torch.manual_seed(0)
    tokens = torch.tensor([[5, 6, 7, 8, 9],
                           [10, 11, 12, 13, 14],
                           [15, 16, 17, 18, PAD],
                           [19, 20, 21, PAD, PAD],
                           [22, 23, PAD, PAD, PAD]])  # T = 5 positions of B = 5 samples, right-padded
    return SequenceFirstEncoder().eval(), (tokens,)
