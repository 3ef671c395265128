"""Axial transformer encoder for radar echo extrapolation.

A hand-rolled multi-head attention is applied along the height axis and then along the width
axis of the latent grid; a ConvGRU-free design that keeps the full field of view in two hops.
"""
import math

import torch
import torch.nn as nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x):  # (n, l, dim)
        n, l, dim = x.shape
        qkv = self.qkv(x).view(n, l, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh)
        w = torch.softmax(w, dim=-1)
        ctx = torch.matmul(w, v)
        return self.o(ctx.reshape(n, l, dim))


def along(fn, x, axis):
    """apply a sequence module along one spatial axis of a (b, H, W, c) grid"""
    b, H, W, c = x.shape
    if axis == 1:
        y = fn(x.permute(0, 2, 1, 3).reshape(b * W, H, c))
        return y.view(b, W, H, c).permute(0, 2, 1, 3)
    y = fn(x.reshape(b * H, W, c))
    return y.view(b, H, W, c)


class AxialEncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln_h, self.attn_h = nn.LayerNorm(dim), MultiHeadSelfAttention(dim, heads)
        self.ln_w, self.attn_w = nn.LayerNorm(dim), MultiHeadSelfAttention(dim, heads)
        self.ln_f = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + along(self.attn_h, self.ln_h(x), 1)
        x = x + along(self.attn_w, self.ln_w(x), 2)
        return x + self.ff(self.ln_f(x))


class RadarExtrapolator(nn.Module):
    def __init__(self, frames=5, dim=32, heads=4, depth=2, out_frames=2):
        super().__init__()
        self.enc = nn.Conv2d(frames, dim, kernel_size=2, stride=2)
        self.layers = nn.ModuleList([AxialEncoderLayer(dim, heads) for _ in range(depth)])
        self.dec = nn.ConvTranspose2d(dim, out_frames, kernel_size=2, stride=2)

    def forward(self, frames):
        x = self.enc(frames).permute(0, 2, 3, 1)
        for layer in self.layers:
            x = layer(x)
        return torch.sigmoid(self.dec(x.permute(0, 3, 1, 2)))


def build():
    torch.manual_seed(0)
    model = RadarExtrapolator().eval()
    frames = torch.rand(2, 5, 12, 16)
    return model, (frames,)
