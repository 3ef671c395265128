"""Patch encoder for small images with a hand-rolled LayerNorm."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        # x: (B, N, D)
        mu = x.mean(dim=1, keepdim=True)
        var = x.var(dim=1, keepdim=True, unbiased=False)
        return (x - mu) / torch.sqrt(var + self.eps) * self.weight + self.bias


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v)
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.norm2 = LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class PatchEncoder(nn.Module):
    def __init__(self, image_size=16, patch=4, channels=1, dim=32, heads=4, depth=2):
        super().__init__()
        self.patch = patch
        self.to_embed = nn.Linear(patch * patch * channels, dim)
        self.pos = nn.Parameter(torch.randn(1, (image_size // patch) ** 2, dim) * 0.02)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.norm = LayerNorm(dim)

    def forward(self, images):
        B, C, H, W = images.shape
        p = self.patch
        patches = images.unfold(2, p, p).unfold(3, p, p)  # (B, C, H/p, W/p, p, p)
        patches = patches.permute(0, 2, 3, 1, 4, 5).reshape(B, (H // p) * (W // p), C * p * p)
        x = self.to_embed(patches) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = PatchEncoder().eval()
    images = torch.randn(2, 1, 16, 16)
    return model, (images,)
