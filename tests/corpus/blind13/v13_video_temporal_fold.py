"""Temporal attention block of a video diffusion U-Net (AnimateDiff-style motion module).

Video latents are (B, C, F, H, W). Every spatial location is treated as its own sequence
of F frames: spatial positions are folded into the batch, attention runs over frames with
sinusoidal frame positions and a per-token LayerNorm, and the result is unfolded back and added residually.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def frame_positions(n_frames, dim):
    pos = torch.arange(n_frames).float()[:, None]
    inv = torch.exp(-math.log(10000.0) * torch.arange(0, dim, 2).float() / dim)
    pe = torch.zeros(n_frames, dim)
    pe[:, 0::2] = torch.sin(pos * inv)
    pe[:, 1::2] = torch.cos(pos * inv)
    return pe


class TemporalAttention(nn.Module):
    def __init__(self, channels=16, heads=4, max_frames=16):
        super().__init__()
        self.h = heads
        self.norm = nn.LayerNorm(channels)
        self.qkv = nn.Linear(channels, 3 * channels)
        self.out = nn.Linear(channels, channels)
        self.register_buffer("pe", frame_positions(max_frames, channels))

    def forward(self, x):
        B, C, Fr, H, W = x.shape
        h = x.permute(0, 2, 3, 4, 1).reshape(B * H * W, Fr, C)          # (B*H*W, F, C)
        h = self.norm(h) + self.pe[:Fr]
        q, k, v = self.qkv(h).view(B * H * W, Fr, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        a = F.scaled_dot_product_attention(q, k, v)
        a = self.out(a.transpose(1, 2).reshape(B * H * W, Fr, C))
        a = a.reshape(B, H, W, Fr, C).permute(0, 4, 3, 1, 2)
        return x + a


class MotionModule(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.temporal = TemporalAttention(channels)
        self.ff = nn.Conv3d(channels, channels, kernel_size=1)

    def forward(self, x):
        x = self.temporal(x)
        return x + self.ff(F.silu(x))


def build():
    torch.manual_seed(0)
    model = MotionModule().eval()
    return model, (torch.randn(2, 16, 6, 3, 5),)
