"""Correct: sinusoidal positions stored as (1, max_len, d) and sliced by `x.size(1)` on batch-first input.

Counterpart of positional_axis_batch_first_table: the table varies along the sequence axis
only and broadcasts over the batch.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int = 16, max_len: int = 64):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(position * div_term)
        pe[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):  # x: (B, T, d)
        return x + self.pe[:, : x.size(1)]


class TinyEncoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = PositionalEncoding(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, input_ids):
        x = self.pos(self.embed(input_ids) * math.sqrt(self.embed.embedding_dim))
        h, _ = self.attn(x, x, x)
        return self.norm(x + h)


def build():
    torch.manual_seed(0)
    model = TinyEncoder().eval()
    input_ids = torch.tensor([[3, 7, 1, 9, 4], [2, 8, 5, 6, 11]])
    return model, (input_ids,)
