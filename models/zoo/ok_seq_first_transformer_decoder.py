"""Correct: `nn.TransformerDecoder` in PyTorch's default sequence-first layout, (T, B) ids and a (max_len, 1, d) table.

Trap for a checker that assumes batch-first: nothing here says `batch_first`, the target ids
are (T, B), the sinusoidal table is stored (max_len, 1, d) and cut with `x.size(0)`, the
memory is (S, B, d), and the padding masks are (B, T) and (B, S) as torch wants them.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class Decoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2, max_len: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)
        layer = nn.TransformerDecoderLayer(d_model, n_heads, dim_feedforward=32, dropout=0.0)
        self.decoder = nn.TransformerDecoder(layer, num_layers=2)
        self.out = nn.Linear(d_model, vocab)

    def forward(self, tgt, memory, tgt_padding, memory_padding):  # tgt (T, B); memory (S, B, d)
        x = self.embed(tgt) * math.sqrt(self.embed.embedding_dim) + self.pe[: tgt.size(0)]
        causal = nn.Transformer.generate_square_subsequent_mask(tgt.size(0))
        h = self.decoder(x, memory, tgt_mask=causal, tgt_key_padding_mask=tgt_padding,
                         memory_key_padding_mask=memory_padding)
        return self.out(h)


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    tgt = torch.tensor([[1, 1], [5, 7], [9, 3], [4, 0], [2, 0], [6, 0]])  # (T=6, B=2), 0 = padding
    memory = torch.randn(7, 2, 16)  # (S=7, B=2, d)
    tgt_padding = (tgt == 0).t()  # (B, T), True = ignore
    memory_padding = torch.tensor([[False] * 7, [False] * 5 + [True] * 2])
    return model, (tgt, memory, tgt_padding, memory_padding)
