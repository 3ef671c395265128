"""A sequence-first text classifier whose position table is stored batch-first, (1, max_len, d).

The tokens are (T, B) and `nn.TransformerEncoder` reads (T, B, d), but `pe[:, :x.size(1)]`
cuts the table along the batch dim and broadcasts it over the positions: every position gets
the same vector, and each sample of the batch another. The mean over dim 0 before the
classifier pools the positions, which also says dim 0 is the sequence.
Fix: store the table as (max_len, 1, d) and add `pe[:x.size(0)]`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("positional-axis",)


class Classifier(nn.Module):
    def __init__(self, vocab: int = 40, width: int = 16, n_classes: int = 3, max_len: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        position = torch.arange(max_len).unsqueeze(1)
        frequency = torch.exp(torch.arange(0, width, 2) * (-math.log(10000.0) / width))
        table = torch.zeros(1, max_len, width)
        table[0, :, 0::2] = torch.sin(position * frequency)
        table[0, :, 1::2] = torch.cos(position * frequency)
        self.register_buffer("pe", table)
        layer = nn.TransformerEncoderLayer(width, nhead=2, dim_feedforward=32, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.classify = nn.Linear(width, n_classes)

    def forward(self, tokens):                                # (T, B)
        x = self.embed(tokens)
        x = x + self.pe[:, : x.size(1)]  # BUG: positional-axis
        return self.classify(self.encoder(x).mean(dim=0))


def build():
    torch.manual_seed(0)
    return Classifier().eval(), (torch.randint(0, 40, (8, 3)),)
