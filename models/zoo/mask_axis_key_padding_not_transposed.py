"""A sequence-first encoder passes its (T, B) padding mask to nn.MultiheadAttention, which wants (B, T).

With as many samples as positions (T = B) torch accepts the mask without a word and reads
row b of the (T, B) mask, position b's pad flags across the batch, as sample b's padding.
The mask's own batch axis then lies on the keys of the score table.
Fix: `key_padding_mask=(tokens == PAD).t()`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-axis",)
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
        mixed, _ = self.attention(x, x, x, key_padding_mask=ignore, need_weights=False)  # BUG: mask-axis
        return self.norm(x + mixed)


def build():
    torch.manual_seed(0)
    tokens = torch.tensor([[5, 6, 7, 8, 9],
                           [10, 11, 12, 13, 14],
                           [15, 16, 17, 18, PAD],
                           [19, 20, 21, PAD, PAD],
                           [22, 23, PAD, PAD, PAD]])  # T = 5 positions of B = 5 samples, right-padded
    return SequenceFirstEncoder().eval(), (tokens,)
