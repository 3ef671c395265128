"""Seq2seq-era sequence-first encoder for tagging: inputs are (seq_len, batch), the sinusoidal
table is stored as (max_len, 1, d_model) and sliced by the sequence length."""
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(1))  # (max_len, 1, d_model)

    def forward(self, x):  # x: (seq_len, batch, d_model)
        return self.dropout(x + self.pe[: x.size(0)])


class Tagger(nn.Module):
    def __init__(self, vocab=150, n_tags=9, d_model=32, nhead=4, layers=2, pad_idx=0):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.pos = PositionalEncoding(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.classifier = nn.Linear(d_model, n_tags)

    def forward(self, tokens, lengths):  # tokens: (seq_len, batch)
        pad_mask = torch.arange(tokens.size(0), device=tokens.device)[None, :] >= lengths[:, None]  # (batch, seq_len)
        x = self.pos(self.embed(tokens) * math.sqrt(self.embed.embedding_dim))
        x = self.encoder(x, src_key_padding_mask=pad_mask)
        return self.classifier(x)  # (seq_len, batch, n_tags)


def build():
    torch.manual_seed(0)
    model = Tagger().eval()
    lengths = torch.tensor([11, 7, 9])
    tokens = torch.randint(1, 150, (11, 3)) * (torch.arange(11)[:, None] < lengths[None, :])
    return model, (tokens, lengths)
