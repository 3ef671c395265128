"""Spatial-reduction attention (PVT-style) whose LayerNorm runs on the (B, C, h*w) map before the permute: it normalizes each channel over the pixels.

The keys and values come from a strided convolution of the image tokens; with 16 channels and a
4x4 reduced grid the map's last dim happens to have C entries, so `nn.LayerNorm(C)` runs on the
pixels without error. Fix: `self.norm(reduced.transpose(1, 2))`, the norm after the permute.
Twin of ok_layernorm_after_reduction.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("layernorm-axis",)


class ReducedAttention(nn.Module):
    def __init__(self, channels: int = 16, ratio: int = 2):
        super().__init__()
        self.q = nn.Linear(channels, channels)
        self.kv = nn.Linear(channels, 2 * channels)
        self.reduce = nn.Conv2d(channels, channels, ratio, stride=ratio)
        self.norm = nn.LayerNorm(channels)

    def forward(self, tokens: torch.Tensor, side: int) -> torch.Tensor:
        B, N, C = tokens.shape
        grid = tokens.transpose(1, 2).reshape(B, C, side, side)
        reduced = self.reduce(grid).flatten(2)                      # (B, C, n)
        reduced = self.norm(reduced).transpose(1, 2)  # BUG: layernorm-axis
        k, v = self.kv(reduced).chunk(2, dim=-1)
        weights = (self.q(tokens) @ k.transpose(1, 2) / math.sqrt(C)).softmax(dim=-1)
        return tokens + weights @ v


class TinyPyramidStage(nn.Module):
    def __init__(self, channels: int = 16, patch: int = 4):
        super().__init__()
        self.patches = nn.Conv2d(3, channels, patch, stride=patch)
        self.attend = ReducedAttention(channels)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        grid = self.patches(image)
        return self.attend(grid.flatten(2).transpose(1, 2), grid.shape[-1])


def build():
    torch.manual_seed(0)
    return TinyPyramidStage().eval(), (torch.randn(2, 3, 32, 32),)
