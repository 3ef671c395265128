"""ViT encoder with axial 2D rotary embeddings (half the head dims rotate with the row, half with the column)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def axial_freqs(coords, head_dim, theta=100.0):
    """coords: (B, N, 2) integer (row, col) -> angles (B, N, head_dim // 2)"""
    quarter = head_dim // 4
    inv = 1.0 / theta ** (torch.arange(quarter, dtype=torch.float32) / quarter)
    rows = coords[..., 0:1].float() * inv
    cols = coords[..., 1:2].float() * inv
    return torch.cat([rows, cols], dim=-1)


def apply_rotary(x, angles):
    """x: (B, H, N, d); rotate consecutive pairs (x0, x1), (x2, x3), ..."""
    x = x.unflatten(-1, (-1, 2))
    cos, sin = angles.cos()[:, None], angles.sin()[:, None]
    x0, x1 = x[..., 0], x[..., 1]
    return torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1).flatten(-2)


class RopeAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=True)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, angles):
        B, N, D = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        q, k = apply_rotary(q, angles), apply_rotary(k, angles)
        return self.proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, N, D))


class RopeViT(nn.Module):
    def __init__(self, patch_dim=12, dim=32, heads=4, depth=2):
        super().__init__()
        self.heads = heads
        self.embed = nn.Linear(patch_dim, dim)
        self.blocks = nn.ModuleList(
            nn.ModuleDict(dict(n1=nn.LayerNorm(dim), attn=RopeAttention(dim, heads), n2=nn.LayerNorm(dim),
                               mlp=nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))))
            for _ in range(depth)
        )
        self.norm = nn.LayerNorm(dim)

    def forward(self, patches, coords):
        x = self.embed(patches)
        angles = axial_freqs(coords, x.size(-1) // self.heads)
        for b in self.blocks:
            x = x + b["attn"](b["n1"](x), angles)
            x = x + b["mlp"](b["n2"](x))
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = RopeViT().eval()
    h, w = 3, 4
    grid = torch.stack(torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij"), -1).reshape(-1, 2)
    coords = grid[None].expand(2, -1, -1).clone()
    return model, (torch.randn(2, h * w, 12), coords)
