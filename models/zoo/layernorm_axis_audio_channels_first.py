"""An audio encoder applies `nn.LayerNorm(frames)` to the conv output while it is still (B, channels, frames).

After the convolutions the frames are the LAST axis; a LayerNorm built for that size
normalizes each channel over time, mixing frames into each other's statistics, instead of
each frame over its channels. Fix: permute to (B, frames, channels) first and use
`nn.LayerNorm(channels)`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ("layernorm-axis",)


class AudioEncoder(nn.Module):
    def __init__(self, n_mels: int = 8, dim: int = 16, heads: int = 2, frames: int = 5):
        super().__init__()
        self.heads = heads
        self.conv1 = nn.Conv1d(n_mels, dim, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, kernel_size=3, stride=2, padding=1)
        self.ln = nn.LayerNorm(frames)
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, mel):
        x = F.gelu(self.conv2(F.gelu(self.conv1(mel))))  # (B, dim, frames)
        x = self.ln(x).permute(0, 2, 1)  # BUG: layernorm-axis
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        w = (q @ k.transpose(-2, -1) / math.sqrt(D // self.heads)).softmax(dim=-1)
        return (w @ v).transpose(1, 2).reshape(B, T, D)


def build():
    torch.manual_seed(0)
    model = AudioEncoder().eval()
    return model, (torch.randn(2, 8, 10),)
