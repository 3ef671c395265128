"""Sinusoidal table of shape (max_len, 1, d) sliced by `x.size(0)` and added to batch-first input (B, T, d).

The PyTorch tutorial's PositionalEncoding is written for sequence-first input (T, B, d). On
batch-first input `x.size(0)` is the batch size, so `pe[:B]` has shape (B, 1, d): sample b
gets the encoding of position b on ALL its tokens, the table varies along the batch axis
and the tokens of a sequence receive no positional information at all. Fix: store the table
as (1, max_len, d) and add `pe[:, :x.size(1)]`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("positional-axis",)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int = 16, max_len: int = 64):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):  # x: (B, T, d), batch first
        return x + self.pe[: x.size(0)]  # BUG: positional-axis


class TinyEncoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = PositionalEncoding(d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=32, dropout=0.0, batch_first=True)

    def forward(self, input_ids):
        x = self.embed(input_ids) * math.sqrt(self.embed.embedding_dim)
        return self.layer(self.pos(x))


def build():
    torch.manual_seed(0)
    model = TinyEncoder().eval()
    input_ids = torch.tensor([[3, 7, 1, 9, 4], [2, 8, 5, 6, 11]])
    return model, (input_ids,)
