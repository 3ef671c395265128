"""Statistical downscaling of coarse reanalysis fields to arbitrary target points.

Coarse fields (B, V, H, W) are tokenised per grid cell and encoded; each target point (lat, lon
normalised to [0, 1], plus elevation) queries the cells with a cross-attention whose logits get a
learned per-head distance penalty (a 2D ALiBi). The output is a correction added to the bilinear
interpolation of the coarse field at the point.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def cell_centres(H, W, device=None):
    ys = (torch.arange(H, device=device) + 0.5) / H
    xs = (torch.arange(W, device=device) + 0.5) / W
    yy, xx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([yy, xx], dim=-1).view(H * W, 2)                # (lat, lon), row-major


def fourier(xy, n=4):
    freqs = 2.0 ** torch.arange(n, device=xy.device) * math.pi
    ang = xy.unsqueeze(-1) * freqs                                      # (..., 2, n)
    return torch.cat([ang.sin(), ang.cos()], dim=-1).flatten(-2)        # (..., 4n)


def bilinear_at(field, latlon):
    """field (B, V, H, W), latlon (B, Q, 2) in [0, 1] -> (B, Q, V)"""
    grid = latlon.flip(-1) * 2.0 - 1.0                                  # grid_sample wants (x, y)
    out = F.grid_sample(field, grid.unsqueeze(1), mode="bilinear", padding_mode="border", align_corners=False)
    return out.squeeze(2).transpose(1, 2)


class DistanceBiasedCrossAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.slope = nn.Parameter(torch.linspace(0.5, 4.0, heads))

    def forward(self, queries, q_xy, tokens, k_xy):
        B, Q, D = queries.shape
        N = tokens.size(1)
        q = self.q(queries).view(B, Q, self.heads, -1).transpose(1, 2)
        k = self.k(tokens).view(B, N, self.heads, -1).transpose(1, 2)
        v = self.v(tokens).view(B, N, self.heads, -1).transpose(1, 2)
        dist = (q_xy.unsqueeze(2) - k_xy).norm(dim=-1) * math.sqrt(N)      # (B, Q, N), ~ coarse cells
        bias = -F.softplus(self.slope)[None, :, None, None] * dist.unsqueeze(1)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.o(o.transpose(1, 2).reshape(B, Q, D))


class Downscaler(nn.Module):
    def __init__(self, n_vars=4, dim=32, heads=4):
        super().__init__()
        self.cell_in = nn.Linear(n_vars + 16, dim)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.0, batch_first=True, norm_first=True), 2,
            enable_nested_tensor=False)
        self.point_in = nn.Linear(16 + 1, dim)
        self.xattn = DistanceBiasedCrossAttention(dim, heads)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, n_vars))

    def forward(self, coarse, latlon, elevation):
        B, V, H, W = coarse.shape
        centres = cell_centres(H, W, coarse.device)
        cells = coarse.flatten(2).transpose(1, 2)                             # (B, H*W, V)
        tokens = self.encoder(self.cell_in(torch.cat([cells, fourier(centres).expand(B, -1, -1)], -1)))
        pts = self.point_in(torch.cat([fourier(latlon), elevation.unsqueeze(-1) / 1000.0], -1))
        h = pts + self.xattn(pts, latlon, tokens, centres)
        return bilinear_at(coarse, latlon) + self.head(h)


def build():
    torch.manual_seed(0)
    model = Downscaler().eval()
    coarse = torch.randn(2, 4, 6, 8)
    latlon = torch.rand(2, 20, 2)
    elevation = torch.rand(2, 20) * 2500.0
    return model, (coarse, latlon, elevation)
