"""The PyTorch word-language-model example with a position table written batch-first, (1, max_len, d) cut by `x.size(1)`, on its (T, B) sequence-first data.

The encoder is sequence-first by default and the causal mask is built from `len(src)`: both
say dim 0 holds the positions. The table then adds position b to every token of sample b:
the positions run along the batch. Fix: a (max_len, 1, d) table cut by `x.size(0)`. Twin of
ok_seq_first_word_language_model.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("positional-axis",)


class PositionalEncoding(nn.Module):
    def __init__(self, d_model: int, dropout: float = 0.1, max_len: int = 64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)]  # BUG: positional-axis
        return self.dropout(x)


class TransformerModel(nn.Module):
    def __init__(self, ntoken: int = 30, ninp: int = 16, nhead: int = 2, nhid: int = 32, nlayers: int = 2):
        super().__init__()
        self.pos_encoder = PositionalEncoding(ninp)
        encoder_layers = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout=0.1)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)

    def forward(self, src):
        src_mask = nn.Transformer.generate_square_subsequent_mask(len(src))
        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, src_mask)
        return torch.log_softmax(self.decoder(output), dim=-1)


def build():
    torch.manual_seed(0)
    model = TransformerModel().eval()
    src = torch.randint(0, 30, (5, 3))  # (T=5, B=3)
    return model, (src,)
