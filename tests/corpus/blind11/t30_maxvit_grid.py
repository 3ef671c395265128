"""MaxViT-style stage: block (window) attention then grid attention, both through nn.MultiheadAttention."""
import torch
import torch.nn as nn


def window_partition(x, p):
    B, H, W, C = x.shape
    x = x.view(B, H // p, p, W // p, p, C).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, p * p, C)


def window_reverse(win, p, B, H, W):
    x = win.view(B, H // p, W // p, p, p, -1).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(B, H, W, -1)


def grid_partition(x, g):
    B, H, W, C = x.shape
    x = x.view(B, g, H // g, g, W // g, C).permute(0, 2, 4, 1, 3, 5)
    return x.reshape(-1, g * g, C)


def grid_reverse(win, g, B, H, W):
    x = win.view(B, H // g, W // g, g, g, -1).permute(0, 3, 1, 4, 2, 5)
    return x.reshape(B, H, W, -1)


class PartitionAttention(nn.Module):
    def __init__(self, dim, heads, size, kind, batch_first):
        super().__init__()
        self.size, self.kind = size, kind
        self.norm = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=batch_first)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        B, H, W, C = x.shape
        part, rev = (window_partition, window_reverse) if self.kind == "block" else (grid_partition, grid_reverse)
        t = part(self.norm(x), self.size)
        y = self.attn(t, t, t, need_weights=False)[0]
        x = x + rev(y, self.size, B, H, W)
        return x + self.mlp(x)


class MaxViTStage(nn.Module):
    def __init__(self, dim=32, heads=4, size=2, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, 2, stride=2)
        self.block_attn = PartitionAttention(dim, heads, size, "block", batch_first=True)
        self.grid_attn = PartitionAttention(dim, heads, size, "grid", batch_first=False)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, classes))

    def forward(self, images):
        x = self.stem(images).permute(0, 2, 3, 1)
        x = self.grid_attn(self.block_attn(x))
        return self.head(x.mean(dim=(1, 2)))


def build():
    torch.manual_seed(0)
    return MaxViTStage().eval(), (torch.randn(2, 3, 8, 8),)
