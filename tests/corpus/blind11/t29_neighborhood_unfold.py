"""Neighborhood attention (NAT-style, 3x3) on a feature map, implemented with F.unfold; out-of-image
neighbours produced by the zero padding are masked out."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NeighborhoodAttention2D(nn.Module):
    def __init__(self, dim, heads, kernel=3):
        super().__init__()
        self.h, self.k = heads, kernel
        self.qkv = nn.Conv2d(dim, 3 * dim, 1)
        self.proj = nn.Conv2d(dim, dim, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        k2, dh = self.k * self.k, C // self.h
        q, k, v = self.qkv(x).chunk(3, dim=1)
        q = q.reshape(B, self.h, dh, 1, H * W)
        # (B, C * k2, H*W): column j holds the k x k neighbourhood of pixel j
        k = F.unfold(k, self.k, padding=self.k // 2).view(B, self.h, dh, k2, H * W)
        v = F.unfold(v, self.k, padding=self.k // 2).view(B, self.h, dh, k2, H * W)
        inside = F.unfold(x.new_ones(1, 1, H, W), self.k, padding=self.k // 2).view(1, 1, k2, H * W) > 0
        scores = (q * k).sum(2) * dh ** -0.5  # (B, h, k2, HW)
        scores = scores.masked_fill(~inside, float("-inf"))
        attn = scores.softmax(dim=2)  # over the k2 neighbours of each pixel
        out = (attn.unsqueeze(2) * v).sum(3).reshape(B, C, H, W)
        return self.proj(out)


class NATStage(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, classes=6):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, 3, padding=1)
        self.blocks = nn.ModuleList(
            nn.ModuleList([nn.GroupNorm(1, dim), NeighborhoodAttention2D(dim, heads), nn.GroupNorm(1, dim),
                           nn.Sequential(nn.Conv2d(dim, 2 * dim, 1), nn.GELU(), nn.Conv2d(2 * dim, dim, 1))])
            for _ in range(depth)
        )
        self.head = nn.Linear(dim, classes)

    def forward(self, images):
        x = self.stem(images)
        for n1, attn, n2, mlp in self.blocks:
            x = x + attn(n1(x))
            x = x + mlp(n2(x))
        return self.head(x.mean(dim=(2, 3)))


def build():
    torch.manual_seed(0)
    return NATStage().eval(), (torch.randn(2, 3, 6, 7),)
