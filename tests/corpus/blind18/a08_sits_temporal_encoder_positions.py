"""Pixel-wise temporal transformer encoder for satellite image time series (SITS-Former style).

Each pixel contributes a sequence of band reflectances over time; a standard sinusoidal
table is added before a stack of encoder layers, and the [CLS]-less representation is the mean
over time.
"""
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe)

    def forward(self, x):
        """x: (batch, time, d_model)"""
        return x + self.pe[: x.size(0)]


class PixelTemporalEncoder(nn.Module):
    def __init__(self, bands=13, d=32, heads=4, depth=2, n_classes=6):
        super().__init__()
        self.proj = nn.Linear(bands, d)
        self.pos = PositionalEncoding(d)
        layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.head = nn.Linear(d, n_classes)

    def forward(self, reflectance):
        x = self.pos(self.proj(reflectance))
        x = self.encoder(x)
        return self.head(x.mean(1))


def build():
    torch.manual_seed(0)
    model = PixelTemporalEncoder().eval()
    reflectance = torch.rand(4, 20, 13)
    return model, (reflectance,)
