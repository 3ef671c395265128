"""ViT attention whose softmax normalizes over the query patches (`dim=-2`) instead of the key patches.

The weights are summed against the values over the keys (`attn @ v`), so each row of the
weights must sum to one over the keys; `softmax(dim=-2)` makes each column sum to one
instead. Fix: `attn.softmax(dim=-1)`.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("softmax-axis",)


class ViTBlock(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 16, heads: int = 2):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-2)  # BUG: softmax-axis
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


def build():
    torch.manual_seed(0)
    model = ViTBlock().eval()
    return model, (torch.randn(2, 3, 16, 16),)
