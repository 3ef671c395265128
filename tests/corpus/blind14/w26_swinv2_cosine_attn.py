"""Swin Transformer V2 window attention: scaled cosine attention with a learnable, clamped
temperature and a continuous relative position bias (log-spaced coordinates through an MLP)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class WindowAttentionV2(nn.Module):
    def __init__(self, dim, window, heads):
        super().__init__()
        self.window, self.heads = window, heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones(heads, 1, 1)))
        self.cpb_mlp = nn.Sequential(nn.Linear(2, 64), nn.ReLU(inplace=True), nn.Linear(64, heads, bias=False))
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).float()  # (N, N, 2)
        rel = rel / (window - 1) * 8
        rel = torch.sign(rel) * torch.log2(rel.abs() + 1.0) / math.log2(8)
        self.register_buffer("rel_coords", rel, persistent=False)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.q_bias = nn.Parameter(torch.zeros(dim))
        self.v_bias = nn.Parameter(torch.zeros(dim))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):  # x: (num_windows*B, N, C)
        Bw, N, C = x.shape
        bias = torch.cat([self.q_bias, torch.zeros_like(self.v_bias), self.v_bias])
        qkv = F.linear(x, self.qkv.weight, bias).reshape(Bw, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(100.0)).exp()
        attn = attn * logit_scale
        rpb = 16 * torch.sigmoid(self.cpb_mlp(self.rel_coords)).permute(2, 0, 1)  # (heads, N, N)
        attn = (attn + rpb.unsqueeze(0)).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(Bw, N, C))


class SwinV2Block(nn.Module):
    def __init__(self, dim=32, window=4, heads=4):
        super().__init__()
        self.window = window
        self.attn = WindowAttentionV2(dim, window, heads)
        self.norm1 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x):  # (B, H, W, C)
        B, H, W, C = x.shape
        w = self.window
        win = x.view(B, H // w, w, W // w, w, C).permute(0, 1, 3, 2, 4, 5).reshape(-1, w * w, C)
        win = self.attn(win)
        y = win.view(B, H // w, W // w, w, w, C).permute(0, 1, 3, 2, 4, 5).reshape(B, H, W, C)
        x = x + self.norm1(y)  # res-post-norm
        return x + self.norm2(self.mlp(x))


def build():
    torch.manual_seed(0)
    model = SwinV2Block().eval()
    with torch.no_grad():
        model.attn.q_bias.normal_(0, 0.1)
        model.attn.v_bias.normal_(0, 0.1)
    x = torch.randn(2, 8, 8, 32)
    return model, (x,)
