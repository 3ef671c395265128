"""A channel-independent patch encoder (PatchTST style) with its positions along the patches."""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PatchEncoder(nn.Module):
    def __init__(self, patch: int = 4, width: int = 16, max_len: int = 32):
        super().__init__()
        self.patch = patch
        self.embed = nn.Linear(patch, width)
        position = torch.arange(max_len).unsqueeze(1).float()
        freq = torch.exp(torch.arange(0, width, 2).float() * -(math.log(10000.0) / width))
        table = torch.zeros(max_len, width)
        table[:, 0::2], table[:, 1::2] = torch.sin(position * freq), torch.cos(position * freq)
        self.register_buffer("table", table.unsqueeze(1))
        self.encoder = nn.TransformerEncoderLayer(width, 2, 32, 0.0, batch_first=True)

    def forward(self, series):  # (B, L, C)
        b, length, channels = series.shape
        patches = series.permute(0, 2, 1).reshape(b * channels, length // self.patch, self.patch)
        tok = self.embed(patches)
        tok = tok + self.table[: tok.size(1)].transpose(0, 1)
        return self.encoder(tok).reshape(b, channels, -1)


def build():
    torch.manual_seed(0)
    return PatchEncoder().eval(), (torch.randn(2, 24, 3),)
