"""Axial-attention block for 2-D feature maps (Ho et al., 2019; Axial-DeepLab style).

Full self-attention over an H x W grid is replaced by attention along each row followed by
attention along each column. Rows and columns are folded into the batch axis with einops so
that a standard nn.MultiheadAttention can be reused.
"""
import torch
import torch.nn as nn
from einops import rearrange


class AxialBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm_row = nn.LayerNorm(dim)
        self.norm_col = nn.LayerNorm(dim)
        self.row_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.col_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm_ff = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def attend_rows(self, x):
        b, h, w, c = x.shape
        t = rearrange(self.norm_row(x), "b h w c -> (b h) w c")
        t, _ = self.row_attn(t, t, t, need_weights=False)
        return rearrange(t, "(b h) w c -> b h w c", b=b)

    def attend_cols(self, x):
        b, h, w, c = x.shape
        t = rearrange(self.norm_col(x), "b h w c -> (b w) h c")
        t, _ = self.col_attn(t, t, t, need_weights=False)
        return rearrange(t, "(b w) h c -> b h w c", b=b)

    def forward(self, x):
        x = x + self.attend_rows(x)
        x = x + self.attend_cols(x)
        return x + self.ff(self.norm_ff(x))


class AxialSegHead(nn.Module):
    """Tiny segmentation network: conv stem, two axial blocks, per-pixel classifier."""

    def __init__(self, in_ch=3, dim=32, heads=4, n_classes=5, size=8):
        super().__init__()
        self.stem = nn.Conv2d(in_ch, dim, 3, padding=1)
        self.row_pos = nn.Parameter(torch.randn(size, 1, dim) * 0.02)
        self.col_pos = nn.Parameter(torch.randn(1, size, dim) * 0.02)
        self.blocks = nn.ModuleList([AxialBlock(dim, heads) for _ in range(2)])
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, img):
        x = rearrange(self.stem(img), "b c h w -> b h w c")
        x = x + self.row_pos + self.col_pos
        for blk in self.blocks:
            x = blk(x)
        return rearrange(self.cls(x), "b h w k -> b k h w")


def build():
    torch.manual_seed(5)
    model = AxialSegHead().eval()
    img = torch.randn(2, 3, 8, 8)
    return model, (img,)
