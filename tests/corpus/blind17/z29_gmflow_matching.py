"""Optical flow as global matching (GMFlow-style, Xu et al. 2022), small version.

Features of both frames are refined by a Transformer (self-attention within a frame, cross-
attention to the other frame), then each pixel of frame 0 is softly matched against every
pixel of frame 1. The flow is the expected matched coordinate minus the pixel's own.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def coords_grid(B, H, W, device=None):
    ys, xs = torch.meshgrid(torch.arange(H, device=device), torch.arange(W, device=device), indexing="ij")
    grid = torch.stack([xs, ys], 0).float()  # (2, H, W), x first
    return grid[None].expand(B, -1, -1, -1)


class GlobalMatching(nn.Module):
    def forward(self, feature0, feature1):
        b, c, h, w = feature0.shape
        f0 = feature0.view(b, c, -1).permute(0, 2, 1)  # (B, HW, C)
        f1 = feature1.view(b, c, -1)  # (B, C, HW)
        correlation = torch.matmul(f0, f1).view(b, h, w, h, w) / c
        grid = coords_grid(b, h, w, feature0.device).view(b, 2, -1).permute(0, 2, 1)  # (B, HW, 2)
        prob = F.softmax(correlation.view(b, h * w, h * w), dim=-1)
        correspondence = torch.matmul(prob, grid).view(b, h, w, 2).permute(0, 3, 1, 2)
        return correspondence - grid.permute(0, 2, 1).view(b, 2, h, w)


class FeatureTransformer(nn.Module):
    def __init__(self, c, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(c, heads, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(c, heads, batch_first=True)
        self.n1, self.n2, self.n3 = nn.LayerNorm(c), nn.LayerNorm(c), nn.LayerNorm(c)
        self.ffn = nn.Sequential(nn.Linear(c, 2 * c), nn.GELU(), nn.Linear(2 * c, c))

    def forward(self, a, b):
        a = a + self.n1(self.self_attn(a, a, a, need_weights=False)[0])
        a = a + self.n2(self.cross_attn(a, b, b, need_weights=False)[0])
        return a + self.n3(self.ffn(a))


class TinyGMFlow(nn.Module):
    def __init__(self, c=32, heads=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 3, 2, 1), nn.ReLU(), nn.Conv2d(c, c, 3, 2, 1))
        self.pos = nn.Conv2d(2, c, 1)
        self.transformer = FeatureTransformer(c, heads)
        self.matching = GlobalMatching()

    def forward(self, img0, img1):
        f0, f1 = self.backbone(img0), self.backbone(img1)
        B, C, H, W = f0.shape
        pe = self.pos(coords_grid(B, H, W, f0.device) / max(H, W))
        s0, s1 = (f0 + pe).flatten(2).transpose(1, 2), (f1 + pe).flatten(2).transpose(1, 2)
        t0, t1 = self.transformer(s0, s1), self.transformer(s1, s0)
        f0 = t0.transpose(1, 2).reshape(B, C, H, W)
        f1 = t1.transpose(1, 2).reshape(B, C, H, W)
        return self.matching(f0, f1)


def build():
    torch.manual_seed(0)
    model = TinyGMFlow().eval()
    img0 = torch.randn(2, 3, 24, 24)
    img1 = torch.roll(img0, shifts=(1, 2), dims=(2, 3)) + 0.05 * torch.randn(2, 3, 24, 24)
    return model, (img0, img1)
