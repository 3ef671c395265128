"""Perceiver IO (Jaegle et al., 2021): inputs are read into a small latent array by
cross-attention, processed by latent self-attention, and decoded by output queries that
cross-attend to the latents (here: per-output-position regression queries).
"""
import math

import torch
import torch.nn as nn


def fourier_features(pos, n_bands, max_freq=16.0):
    freqs = torch.linspace(1.0, max_freq / 2, n_bands, device=pos.device)
    ang = math.pi * pos[..., None] * freqs
    return torch.cat([pos[..., None], ang.sin(), ang.cos()], dim=-1)


class CrossAttentionBlock(nn.Module):
    def __init__(self, q_dim, kv_dim, heads):
        super().__init__()
        self.q_norm, self.kv_norm = nn.LayerNorm(q_dim), nn.LayerNorm(kv_dim)
        self.attn = nn.MultiheadAttention(q_dim, heads, kdim=kv_dim, vdim=kv_dim, batch_first=True)
        self.mlp = nn.Sequential(nn.LayerNorm(q_dim), nn.Linear(q_dim, 2 * q_dim), nn.GELU(), nn.Linear(2 * q_dim, q_dim))

    def forward(self, q, kv, key_padding_mask=None):
        kv = self.kv_norm(kv)
        h, _ = self.attn(self.q_norm(q), kv, kv, key_padding_mask=key_padding_mask, need_weights=False)
        q = q + h
        return q + self.mlp(q)


class PerceiverIO(nn.Module):
    def __init__(self, in_dim=10, n_latents=8, latent_dim=32, heads=4, n_self=2, n_bands=6, out_dim=5):
        super().__init__()
        self.n_bands = n_bands
        self.latents = nn.Parameter(torch.randn(n_latents, latent_dim) * 0.02)
        self.encode = CrossAttentionBlock(latent_dim, in_dim, heads=1)
        self.process = nn.ModuleList(
            nn.TransformerEncoderLayer(latent_dim, heads, 2 * latent_dim, dropout=0.0, batch_first=True, norm_first=True)
            for _ in range(n_self)
        )
        self.query_proj = nn.Linear(2 * n_bands + 1, latent_dim)
        self.decode = CrossAttentionBlock(latent_dim, latent_dim, heads)
        self.to_out = nn.Linear(latent_dim, out_dim)

    def forward(self, inputs, input_mask, output_pos):
        B = inputs.size(0)
        z = self.encode(self.latents.expand(B, -1, -1), inputs, key_padding_mask=~input_mask)
        for layer in self.process:
            z = layer(z)
        queries = self.query_proj(fourier_features(output_pos, self.n_bands))
        return self.to_out(self.decode(queries, z))


def build():
    torch.manual_seed(0)
    model = PerceiverIO().eval()
    lengths = torch.tensor([18, 11, 5])
    input_mask = torch.arange(18)[None, :] < lengths[:, None]
    inputs = torch.randn(3, 18, 10) * input_mask[..., None]
    output_pos = torch.linspace(-1, 1, 7).expand(3, 7)
    return model, (inputs, input_mask, output_pos)
