import math

import torch
import torch.nn as nn


def modulate(x, shift, scale):
    return x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class CrossDiTBlock(nn.Module):
    def __init__(self, dim, heads, ctx_dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.cross_attn = nn.MultiheadAttention(dim, heads, kdim=ctx_dim, vdim=ctx_dim, batch_first=True)
        self.norm3 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(dim, 6 * dim))

    def forward(self, x, c, ctx, ctx_mask):
        s1, sc1, g1, s2, sc2, g2 = self.adaLN_modulation(c).chunk(6, dim=1)
        h = modulate(self.norm1(x), s1, sc1)
        x = x + g1.unsqueeze(1) * self.self_attn(h, h, h, need_weights=False)[0]
        h = self.norm2(x)
        x = x + self.cross_attn(h, ctx, ctx, key_padding_mask=ctx_mask, need_weights=False)[0]
        x = x + g2.unsqueeze(1) * self.mlp(modulate(self.norm3(x), s2, sc2))
        return x


class TextConditionedDiT(nn.Module):
    def __init__(self, in_dim=16, dim=32, heads=4, ctx_dim=24, depth=2, n_tokens=8):
        super().__init__()
        self.x_embed = nn.Linear(in_dim, dim)
        self.pos_embed = nn.Parameter(torch.randn(1, n_tokens, dim) * 0.02)
        self.t_mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList([CrossDiTBlock(dim, heads, ctx_dim) for _ in range(depth)])
        self.out = nn.Linear(dim, in_dim)
        self.dim = dim

    def forward(self, x, t, text_emb, text_len):
        L = text_emb.shape[1]
        text_mask = torch.arange(L, device=text_emb.device)[None, :] < text_len[:, None]
        x = self.x_embed(x) + self.pos_embed
        c = self.t_mlp(timestep_embedding(t, self.dim))
        for blk in self.blocks:
            x = blk(x, c, text_emb, text_mask)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = TextConditionedDiT().eval()
    x = torch.randn(2, 8, 16)
    t = torch.tensor([50.0, 400.0])
    text_emb = torch.randn(2, 8, 24)
    text_len = torch.tensor([5, 7])
    return model, (x, t, text_emb, text_len)
