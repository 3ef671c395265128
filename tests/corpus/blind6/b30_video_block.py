"""Divided space-time attention block for video patches (TimeSformer style)."""
import torch
import torch.nn as nn
from einops import rearrange


class DividedSpaceTimeBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.time_norm = nn.LayerNorm(dim)
        self.time_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.space_norm = nn.LayerNorm(dim)
        self.space_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp_norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        # x: (B, T, N, D) -- frames, patches per frame, channels
        b, t, n, _ = x.shape
        xt = rearrange(x, "b t n d -> (b n) t d")
        h = self.time_norm(xt)
        xt = xt + self.time_attn(h, h, h, need_weights=False)[0]
        x = rearrange(xt, "(b n) t d -> b t n d", b=b, n=n)

        xs = rearrange(x, "b t n d -> (b t) n d")
        h = self.space_norm(xs)
        xs = xs + self.space_attn(h, h, h, need_weights=False)[0]
        x = rearrange(xs, "(b t) n d -> b t n d", b=b, t=t)
        return x + self.mlp(self.mlp_norm(x))


class VideoEncoder(nn.Module):
    def __init__(self, patch_dim=48, dim=32, heads=4, depth=2, frames=4, patches=6, num_classes=7):
        super().__init__()
        self.proj = nn.Linear(patch_dim, dim)
        self.time_pos = nn.Parameter(torch.randn(1, frames, 1, dim) * 0.02)
        self.space_pos = nn.Parameter(torch.randn(1, 1, patches, dim) * 0.02)
        self.blocks = nn.ModuleList(DividedSpaceTimeBlock(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, video_patches):
        x = self.proj(video_patches) + self.time_pos + self.space_pos
        for blk in self.blocks:
            x = blk(x)
        x = self.norm(x)
        return self.head(x.mean(dim=(1, 2))), x


def build():
    torch.manual_seed(0)
    model = VideoEncoder().eval()
    video_patches = torch.randn(2, 4, 6, 48)
    return model, (video_patches,)
