"""Correct: a ViT encoder: patches from a strided Conv2d, flattened H×W, a CLS token and learned positions.

Trap for a checker that only knows text: the sequence is made inside the model (patches of
an image), one token longer than the patch grid for the CLS token, and the input is a
(B, C, H, W) image.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


class ViT(nn.Module):
    def __init__(self, image: int = 16, patch: int = 4, dim: int = 16, heads: int = 2, classes: int = 5):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.randn(1, (image // patch) ** 2 + 1, dim) * 0.02)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.head = nn.Linear(dim, classes)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2)  # (B, N, dim)
        x = torch.cat([self.cls_token.expand(x.shape[0], -1, -1), x], dim=1)
        x = x + self.pos_embed
        x = x + self.attn(self.norm1(x))
        return self.head(self.norm2(x)[:, 0])


def build():
    torch.manual_seed(0)
    model = ViT().eval()
    return model, (torch.randn(2, 3, 16, 16),)
