"""Correct: a packed bidirectional GRU encoder (lengths given) with scaled dot-product attention from a GRU decoder.

Trap for a checker that reads axes off every op: `pack_padded_sequence` sorts the batch by
length and scatters an `arange` into the inverse permutation, which is batch bookkeeping, not
a position table; the padding is known only from the lengths compared with the positions.
"""

import math

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

EXPECTED: tuple[str, ...] = ()


class Translator(nn.Module):
    def __init__(self, vocab: int = 30, width: int = 16):
        super().__init__()
        self.source_embed = nn.Embedding(vocab, width, padding_idx=0)
        self.target_embed = nn.Embedding(vocab, width, padding_idx=0)
        self.encoder = nn.GRU(width, width, batch_first=True, bidirectional=True)
        self.merge = nn.Linear(2 * width, width)
        self.decoder = nn.GRU(width, width, batch_first=True)
        self.readout = nn.Linear(2 * width, vocab)

    def forward(self, source, lengths, target):
        packed = pack_padded_sequence(self.source_embed(source), lengths, batch_first=True, enforce_sorted=False)
        states, _ = self.encoder(packed)
        states, _ = pad_packed_sequence(states, batch_first=True, total_length=source.size(1))
        states = self.merge(states)                                            # (B, S, d)
        decoded, _ = self.decoder(self.target_embed(target))                   # (B, T, d)
        scores = torch.bmm(decoded, states.transpose(1, 2)) / math.sqrt(states.size(-1))   # (B, T, S)
        real = torch.arange(source.size(1))[None, :] < lengths[:, None]        # (B, S)
        scores = scores.masked_fill(~real[:, None, :], float("-inf"))
        context = torch.bmm(scores.softmax(dim=-1), states)
        return self.readout(torch.cat([decoded, context], dim=-1))


def build():
    torch.manual_seed(0)
    lengths = torch.tensor([7, 4, 5])
    source = torch.randint(1, 30, (3, 7)) * (torch.arange(7)[None, :] < lengths[:, None])
    return Translator().eval(), (source, lengths, torch.randint(1, 30, (3, 5)))
