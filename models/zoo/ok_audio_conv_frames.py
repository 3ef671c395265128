"""Correct: a Whisper-like audio encoder: log-mel frames (B, n_mels, T) through two Conv1d, then self-attention.

Trap for a checker that reads (B, T, d): the input is channels-first, the second convolution
halves the frames, and the model transposes them into the sequence position itself.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ()


class AudioEncoder(nn.Module):
    def __init__(self, n_mels: int = 8, dim: int = 16, heads: int = 2, frames: int = 10):
        super().__init__()
        self.heads = heads
        self.conv1 = nn.Conv1d(n_mels, dim, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, kernel_size=3, stride=2, padding=1)
        self.positional_embedding = nn.Parameter(torch.randn(frames // 2, dim) * 0.02)
        self.ln = nn.LayerNorm(dim)
        self.query, self.key, self.value = nn.Linear(dim, dim), nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, mel):
        x = F.gelu(self.conv1(mel))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)  # (B, T/2, dim)
        x = x + self.positional_embedding
        h = self.ln(x)
        B, T, D = h.shape
        q = self.query(h).view(B, T, self.heads, -1).permute(0, 2, 1, 3)
        k = self.key(h).view(B, T, self.heads, -1).permute(0, 2, 3, 1)
        v = self.value(h).view(B, T, self.heads, -1).permute(0, 2, 1, 3)
        w = (q @ k / math.sqrt(D // self.heads)).softmax(dim=-1)
        return x + self.out((w @ v).permute(0, 2, 1, 3).flatten(start_dim=2))


def build():
    torch.manual_seed(0)
    model = AudioEncoder().eval()
    return model, (torch.randn(2, 8, 10),)
