"""ViT attention that splits heads with `reshape(B, H, N, d_h)` straight from (B, N, C): patches and features torn apart.

The projection is (B, N, C) with C = H·d_h on the last axis. Reshaping it to (B, H, N, d_h)
without first reshaping to (B, N, H, d_h) and transposing cuts the token axis into pieces
that end up in the "heads" and "patches" axes. Fix: `reshape(B, N, H, d_h).transpose(1, 2)`.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("head-split",)


class ViTBlock(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.to_q, self.to_k, self.to_v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        B, N, C = x.shape
        H = self.heads
        q = self.to_q(x).reshape(B, H, N, C // H)  # BUG: head-split
        k = self.to_k(x).reshape(B, N, H, C // H).transpose(1, 2)
        v = self.to_v(x).reshape(B, N, H, C // H).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1) * (C // H) ** -0.5).softmax(dim=-1)
        return (attn @ v).transpose(1, 2).reshape(B, N, C)


def build():
    torch.manual_seed(0)
    model = ViTBlock().eval()
    return model, (torch.randn(2, 3, 16, 16),)
