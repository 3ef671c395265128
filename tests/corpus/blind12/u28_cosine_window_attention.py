"""Swin Transformer V2 style window attention block (Liu et al., 2022).

Scaled cosine attention: queries and keys are L2-normalised and the cosine similarity is
multiplied by a learnable per-head logit scale (initialised to log 10, clamped at log 100)
instead of 1/sqrt(d). Relative positions come from a continuous position bias MLP over
log-spaced coordinates, squashed with 16 * sigmoid.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowAttentionV2(nn.Module):
    def __init__(self, dim, window, heads):
        super().__init__()
        self.window, self.heads = window, heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones(heads, 1, 1)))
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, heads, bias=False))
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.q_bias = nn.Parameter(torch.zeros(dim))
        self.v_bias = nn.Parameter(torch.zeros(dim))
        self.proj = nn.Linear(dim, dim)

        r = torch.arange(-(window - 1), window).float()
        table = torch.stack(torch.meshgrid(r, r, indexing="ij"), dim=-1) / (window - 1) * 8
        table = torch.sign(table) * torch.log2(table.abs() + 1.0) / math.log2(8)
        self.register_buffer("coords_table", table)                 # (2w-1, 2w-1, 2)
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        self.register_buffer("rel_index", rel[..., 0] * (2 * window - 1) + rel[..., 1])

    def forward(self, x):
        Bw, N, C = x.shape
        bias = torch.cat([self.q_bias, torch.zeros_like(self.v_bias), self.v_bias])
        qkv = F.linear(x, self.qkv.weight, bias).reshape(Bw, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(1.0 / 0.01)).exp()
        attn = attn * logit_scale
        bias_table = self.cpb_mlp(self.coords_table).view(-1, self.heads)
        rel_bias = bias_table[self.rel_index.view(-1)].view(N, N, -1).permute(2, 0, 1)
        attn = attn + 16 * torch.sigmoid(rel_bias)[None]
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(Bw, N, C)
        return self.proj(x)


class SwinV2Block(nn.Module):
    def __init__(self, dim=32, window=4, heads=4):
        super().__init__()
        self.window = window
        self.attn = WindowAttentionV2(dim, window, heads)
        self.norm1 = nn.LayerNorm(dim)     # res-post-norm
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x):
        B, H, W, C = x.shape
        w = self.window
        win = x.view(B, H // w, w, W // w, w, C).permute(0, 1, 3, 2, 4, 5).reshape(-1, w * w, C)
        out = self.attn(win).view(B, H // w, W // w, w, w, C).permute(0, 1, 3, 2, 4, 5).reshape(B, H, W, C)
        x = x + self.norm1(out)
        return x + self.norm2(self.mlp(x))


class TinySwinV2(nn.Module):
    def __init__(self, dim=32, n_classes=10):
        super().__init__()
        self.patch = nn.Conv2d(3, dim, 2, stride=2)
        self.blocks = nn.Sequential(SwinV2Block(dim), SwinV2Block(dim))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, img):
        x = self.patch(img).permute(0, 2, 3, 1)
        x = self.blocks(x)
        return self.head(self.norm(x).mean(dim=(1, 2))), x


def build():
    torch.manual_seed(28)
    model = TinySwinV2().eval()
    return model, (torch.randn(2, 3, 16, 16),)
