"""Diffusion transformer with adaLN conditioning; attention through SDPA with fused QKV."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TimestepEmbedder(nn.Module):
    def __init__(self, hidden, freq_dim=32):
        super().__init__()
        self.freq_dim = freq_dim
        self.mlp = nn.Sequential(nn.Linear(freq_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))

    def forward(self, t):
        half = self.freq_dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
        args = t.float()[:, None] * freqs[None]
        return self.mlp(torch.cat([torch.cos(args), torch.sin(args)], dim=-1))


class Block(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.norm2 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.proj = nn.Linear(hidden, hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(approximate="tanh"), nn.Linear(4 * hidden, hidden))
        self.ada = nn.Linear(hidden, 6 * hidden)

    def forward(self, x, c):
        B, N, D = x.shape
        sh1, sc1, g1, sh2, sc2, g2 = self.ada(F.silu(c))[:, None, :].chunk(6, dim=-1)
        h = self.norm1(x) * (1 + sc1) + sh1
        q, k, v = self.qkv(h).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        h = F.scaled_dot_product_attention(q, k, v)
        x = x + g1 * self.proj(h.transpose(1, 2).reshape(B, N, D))
        h = self.norm2(x) * (1 + sc2) + sh2
        return x + g2 * self.mlp(h)


class DiT(nn.Module):
    def __init__(self, in_ch=4, patch=2, grid=4, hidden=48, heads=4, depth=2, num_classes=10):
        super().__init__()
        self.patch, self.grid, self.in_ch = patch, grid, in_ch
        self.patchify = nn.Conv2d(in_ch, hidden, patch, stride=patch)
        self.pos = nn.Parameter(torch.randn(1, grid * grid, hidden) * 0.02)
        self.t_emb = TimestepEmbedder(hidden)
        self.y_emb = nn.Embedding(num_classes + 1, hidden)
        self.blocks = nn.ModuleList(Block(hidden, heads) for _ in range(depth))
        self.norm_out = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.ada_out = nn.Linear(hidden, 2 * hidden)
        self.out = nn.Linear(hidden, patch * patch * in_ch)

    def forward(self, latents, timesteps, labels):
        x = self.patchify(latents).flatten(2).transpose(1, 2) + self.pos
        c = self.t_emb(timesteps) + self.y_emb(labels)
        for blk in self.blocks:
            x = blk(x, c)
        shift, scale = self.ada_out(F.silu(c))[:, None, :].chunk(2, dim=-1)
        x = self.out(self.norm_out(x) * (1 + scale) + shift)
        p, g = self.patch, self.grid
        x = x.view(-1, g, g, p, p, self.in_ch).permute(0, 5, 1, 3, 2, 4)
        return x.reshape(-1, self.in_ch, g * p, g * p)


def build():
    torch.manual_seed(0)
    model = DiT().eval()
    latents = torch.randn(4, 4, 8, 8)
    timesteps = torch.tensor([1, 250, 500, 999])
    labels = torch.tensor([0, 9, 10, 4])
    return model, (latents, timesteps, labels)
