"""Precipitation nowcasting backbone with axial attention (MetNet-style).

The radar context is encoded into a (H, W) grid of features; attention alternates between
the rows and the columns of the grid so the cost is O(HW(H+W)) instead of O((HW)^2).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class AxialAttention(nn.Module):
    def __init__(self, dim, heads, axis):
        super().__init__()
        assert axis in ("h", "w")
        self.axis, self.heads = axis, heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):  # x: (b, h, w, c)
        b, H, W, c = x.shape
        if self.axis == "h":
            x = rearrange(x, "b h w c -> (b w) h c")
        else:
            x = rearrange(x, "b h w c -> (b h) w c")
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "n l (g e) -> n g l e", g=self.heads) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v)
        out = self.proj(rearrange(out, "n g l e -> n l (g e)"))
        if self.axis == "h":
            return rearrange(out, "(b w) h c -> b h w c", b=b)
        return rearrange(out, "(b h) w c -> b h w c", b=b)


class AxialBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1, self.row = nn.LayerNorm(dim), AxialAttention(dim, heads, "w")
        self.n2, self.col = nn.LayerNorm(dim), AxialAttention(dim, heads, "h")
        self.n3 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.row(self.n1(x))
        x = x + self.col(self.n2(x))
        return x + self.mlp(self.n3(x))


class Nowcaster(nn.Module):
    def __init__(self, frames=4, dim=32, heads=4, depth=2, lead_times=3):
        super().__init__()
        self.stem = nn.Conv2d(frames, dim, 3, padding=1)
        self.blocks = nn.ModuleList([AxialBlock(dim, heads) for _ in range(depth)])
        self.head = nn.Linear(dim, lead_times)

    def forward(self, radar):  # (b, frames, H, W)
        x = self.stem(radar).permute(0, 2, 3, 1)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x).permute(0, 3, 1, 2)


def build():
    torch.manual_seed(0)
    model = Nowcaster().eval()
    radar = torch.rand(2, 4, 8, 10)
    return model, (radar,)
