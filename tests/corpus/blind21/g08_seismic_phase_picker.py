"""Seismic P/S phase picker: conv stem -> transformer encoder -> transposed-conv head.

Three-component waveforms in, per-sample probabilities for (P, S, noise) out, in the spirit of
EQTransformer / PhaseNet. Feature maps stay channels-first (B, C, T) between conv blocks.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoid_table(n_pos, dim):
    pos = torch.arange(n_pos, dtype=torch.float32).unsqueeze(1)
    div = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(n_pos, dim)
    table[:, 0::2] = torch.sin(pos * div)
    table[:, 1::2] = torch.cos(pos * div)
    return table


class ChannelNorm(nn.Module):
    """LayerNorm for (B, C, T) maps: statistics over channels at every time step."""

    def __init__(self, channels, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(1, keepdim=True)
        var = (x - mu).pow(2).mean(1, keepdim=True)
        x = (x - mu) / torch.sqrt(var + self.eps)
        return self.weight[:, None] * x + self.bias[:, None]


class ConvStem(nn.Module):
    def __init__(self, c_in, dim, stride):
        super().__init__()
        self.conv1 = nn.Conv1d(c_in, dim // 2, 7, padding=3)
        self.conv2 = nn.Conv1d(dim // 2, dim, 7, stride=stride, padding=3)
        self.norm = ChannelNorm(dim)

    def forward(self, x):
        return self.norm(self.conv2(F.gelu(self.conv1(x))))


class PhasePicker(nn.Module):
    def __init__(self, c_in=3, dim=32, heads=4, depth=2, stride=4, max_frames=512):
        super().__init__()
        self.stem = ConvStem(c_in, dim, stride)
        self.register_buffer("pe", sinusoid_table(max_frames, dim), persistent=False)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.up = nn.ConvTranspose1d(dim, dim, stride, stride=stride)
        self.head_norm = ChannelNorm(dim)
        self.head = nn.Conv1d(dim, 3, 1)

    def forward(self, wave):
        x = self.stem(wave)                               # (B, C, T')
        x = x + self.pe[: x.size(-1)].t()
        x = self.encoder(x.transpose(1, 2)).transpose(1, 2)
        x = self.head_norm(F.gelu(self.up(x)))
        return self.head(x).softmax(dim=1)               # per-sample P / S / noise


def build():
    torch.manual_seed(0)
    model = PhasePicker().eval()
    wave = torch.randn(2, 3, 128)
    wave = wave / wave.abs().amax(dim=-1, keepdim=True)   # trace-wise peak normalisation
    return model, (wave,)
