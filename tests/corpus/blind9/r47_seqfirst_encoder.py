import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=64):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[: x.size(0)]
        return self.dropout(x)


class Layer(nn.Module):
    def __init__(self, d_model, nhead):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=0.1)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))

    def forward(self, src, key_padding_mask):
        a, _ = self.attn(src, src, src, key_padding_mask=key_padding_mask)
        src = self.ln1(src + a)
        return self.ln2(src + self.mlp(src))


class TaggingModel(nn.Module):
    def __init__(self, vocab=40, d_model=32, nhead=4, nlayers=2, ntags=7):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.pos = PositionalEncoding(d_model)
        self.layers = nn.ModuleList([Layer(d_model, nhead) for _ in range(nlayers)])
        self.out = nn.Linear(d_model, ntags)
        self.d_model = d_model

    def forward(self, tokens, lengths):
        B, T = tokens.shape
        key_padding_mask = torch.arange(T)[None, :] >= lengths[:, None]
        src = self.emb(tokens.t()) * math.sqrt(self.d_model)
        src = self.pos(src)
        for layer in self.layers:
            src = layer(src, key_padding_mask)
        return self.out(src.transpose(0, 1))


def build():
    torch.manual_seed(0)
    model = TaggingModel().eval()
    tokens = torch.randint(1, 40, (3, 9))
    lengths = torch.tensor([9, 5, 3])
    tokens = tokens.masked_fill(torch.arange(9)[None, :] >= lengths[:, None], 0)
    return model, (tokens, lengths)
