"""EViT-style token reorganisation (Liang et al., 2022) in a small ViT.

After the attention of selected blocks, the image tokens are ranked by the attention the
[CLS] token pays them (averaged over heads). Each image keeps its own top-k tokens; the
remaining ones are fused into a single token, their features averaged with those attention
weights.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x), attn[:, :, 0, 1:].mean(dim=1)          # CLS -> image tokens, (B, N-1)


class EViTBlock(nn.Module):
    def __init__(self, dim, heads, keep_rate):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.keep_rate = keep_rate

    def forward(self, x):
        a, cls_attn = self.attn(self.norm1(x))
        x = x + a
        if self.keep_rate < 1:
            B, N, C = x.shape
            k = math.ceil(self.keep_rate * (N - 1))
            top_val, top_idx = cls_attn.topk(k, dim=1)                          # per image
            keep = torch.gather(x[:, 1:], 1, top_idx[..., None].expand(-1, -1, C))
            dropped = torch.ones_like(cls_attn, dtype=torch.bool).scatter(1, top_idx, False)
            w = (cls_attn * dropped)[..., None]
            fused = (x[:, 1:] * w).sum(1, keepdim=True) / w.sum(1, keepdim=True)
            x = torch.cat([x[:, :1], keep, fused], dim=1)
        return x + self.mlp(self.norm2(x))


class EViT(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, heads=4, n_classes=10):
        super().__init__()
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        n = (img // patch) ** 2
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, n + 1, dim) * 0.02)
        self.blocks = nn.ModuleList([EViTBlock(dim, heads, r) for r in (1.0, 0.5, 0.7)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, img):
        x = self.embed(img).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], dim=1) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x[:, 0]))


def build():
    torch.manual_seed(31)
    model = EViT().eval()
    return model, (torch.randn(3, 3, 16, 16),)
