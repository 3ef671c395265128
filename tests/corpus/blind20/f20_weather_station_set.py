"""Station-set Transformer for weather nowcasting and gap filling over irregular station networks.

Every station is a token: static features (elevation, land use), a Fourier encoding of its
position, and its current reading, or a learned "missing" embedding when the station did not
report. A station reads the stations within `radius` km that reported this hour; the model
outputs the next-hour reading of every station, including the ones that are currently missing.
"""
import math

import torch
import torch.nn as nn


class FourierCoords(nn.Module):
    def __init__(self, dim, scale_km=50.0):
        super().__init__()
        self.register_buffer("freqs", torch.randn(2, dim // 2) / scale_km)

    def forward(self, xy):
        ang = 2 * math.pi * xy @ self.freqs
        return torch.cat([ang.sin(), ang.cos()], dim=-1)


class StationAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.n1, self.n2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, allowed):
        h = self.n1(x)
        blocked = (~allowed).repeat_interleave(self.mha.num_heads, dim=0)
        x = x + self.mha(h, h, h, attn_mask=blocked, need_weights=False)[0]
        return x + self.ff(self.n2(x))


class StationSetModel(nn.Module):
    def __init__(self, n_vars=4, n_static=3, dim=32, heads=4, depth=2, radius_km=25.0):
        super().__init__()
        self.radius = radius_km
        self.value = nn.Linear(n_vars, dim)
        self.missing = nn.Parameter(torch.randn(dim) * 0.02)
        self.static = nn.Linear(n_static, dim)
        self.coords = FourierCoords(dim)
        self.layers = nn.ModuleList(StationAttention(dim, heads) for _ in range(depth))
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, n_vars))

    def forward(self, values, observed, static, xy):
        reading = torch.where(observed.bool()[..., None], self.value(values), self.missing)
        x = reading + self.static(static) + self.coords(xy)
        near = torch.cdist(xy, xy) < self.radius
        allowed = near & observed.bool()[:, None, :]
        for layer in self.layers:
            x = layer(x, allowed)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = StationSetModel().eval()
    xy = torch.rand(2, 12, 2) * 60.0
    xy[0, 11] = torch.tensor([160.0, 140.0])
    observed = (torch.rand(2, 12) > 0.3).long()
    observed[0, 11] = 0
    values = torch.randn(2, 12, 4)
    values[observed == 0] = 0.0
    static = torch.randn(2, 12, 3)
    return model, (values, observed, static, xy)
