"""Pyramid Vision Transformer (PVT v1) stage with spatial-reduction attention (SRA).

The K/V input is downsampled by a non-overlapping conv of stride `sr_ratio` and layer-normed
before the K/V projections.
"""
import torch
import torch.nn as nn


class SpatialReductionAttention(nn.Module):
    def __init__(self, dim, num_heads=2, sr_ratio=2, qkv_bias=True):
        super().__init__()
        assert dim % num_heads == 0
        self.dim = dim
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = head_dim ** -0.5
        self.q = nn.Linear(dim, dim, bias=qkv_bias)
        self.kv = nn.Linear(dim, dim * 2, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)
        self.sr = nn.Conv2d(dim, dim, kernel_size=sr_ratio, stride=sr_ratio)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, H, W):
        B, N, C = x.shape
        q = self.q(x).reshape(B, N, self.num_heads, C // self.num_heads).permute(0, 2, 1, 3)

        x_ = x.permute(0, 2, 1).reshape(B, C, H, W)
        x_ = self.sr(x_).reshape(B, C, -1)
        x_ = self.norm(x_).permute(0, 2, 1)
        kv = self.kv(x_).reshape(B, -1, 2, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        k, v = kv[0], kv[1]

        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, num_heads, sr_ratio, mlp_ratio=2):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SpatialReductionAttention(dim, num_heads, sr_ratio)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * mlp_ratio), nn.GELU(), nn.Linear(dim * mlp_ratio, dim))

    def forward(self, x, H, W):
        x = x + self.attn(self.norm1(x), H, W)
        return x + self.mlp(self.norm2(x))


class PVTStage(nn.Module):
    def __init__(self, in_chans=3, embed_dim=16, patch_size=4, img_size=32, depth=2, num_heads=2, sr_ratio=2):
        super().__init__()
        self.patch_embed = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)
        n = (img_size // patch_size) ** 2
        self.pos_embed = nn.Parameter(torch.randn(1, n, embed_dim) * 0.02)
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads, sr_ratio) for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x):
        x = self.patch_embed(x)
        B, C, H, W = x.shape
        x = x.flatten(2).transpose(1, 2) + self.pos_embed
        for blk in self.blocks:
            x = blk(x, H, W)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = PVTStage().eval()
    return model, (torch.randn(2, 3, 32, 32),)
