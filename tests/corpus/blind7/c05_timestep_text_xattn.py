import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t[:, None].float() * freqs[None]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)
    return emb


class CrossAttention(nn.Module):
    def __init__(self, dim, ctx_dim, heads):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(ctx_dim, dim, bias=False)
        self.to_v = nn.Linear(ctx_dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, ctx, ctx_mask):
        B, N, C = x.shape
        h = self.heads
        q = self.to_q(x).view(B, N, h, C // h).transpose(1, 2)
        k = self.to_k(ctx).view(B, ctx.shape[1], h, C // h).transpose(1, 2)
        v = self.to_v(ctx).view(B, ctx.shape[1], h, C // h).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=ctx_mask[:, None, None, :])
        return self.to_out(out.transpose(1, 2).reshape(B, N, C))


class UNetMidAttnBlock(nn.Module):
    def __init__(self, channels=32, ctx_dim=24, heads=4, t_dim=33):
        super().__init__()
        self.t_dim = t_dim
        self.time_mlp = nn.Sequential(nn.Linear(t_dim, channels), nn.SiLU(), nn.Linear(channels, channels))
        self.norm_in = nn.GroupNorm(8, channels)
        self.proj_in = nn.Linear(channels, channels)
        self.norm1 = nn.LayerNorm(channels)
        self.attn1 = CrossAttention(channels, channels, heads)
        self.norm2 = nn.LayerNorm(channels)
        self.attn2 = CrossAttention(channels, ctx_dim, heads)
        self.norm3 = nn.LayerNorm(channels)
        self.ff = nn.Sequential(nn.Linear(channels, 4 * channels), nn.GELU(), nn.Linear(4 * channels, channels))
        self.proj_out = nn.Linear(channels, channels)

    def forward(self, feat, t, ctx, ctx_len):
        B, C, H, W = feat.shape
        feat = feat + self.time_mlp(timestep_embedding(t, self.t_dim))[:, :, None, None]
        x = self.norm_in(feat).flatten(2).transpose(1, 2)
        x = self.proj_in(x)
        self_mask = torch.ones(B, H * W, dtype=torch.bool, device=x.device)
        x = x + self.attn1(self.norm1(x), self.norm1(x), self_mask)
        ctx_mask = torch.arange(ctx.shape[1], device=ctx.device)[None, :] < ctx_len[:, None]
        x = x + self.attn2(self.norm2(x), ctx, ctx_mask)
        x = x + self.ff(self.norm3(x))
        x = self.proj_out(x).transpose(1, 2).reshape(B, C, H, W)
        return feat + x


def build():
    torch.manual_seed(0)
    model = UNetMidAttnBlock().eval()
    feat = torch.randn(2, 32, 3, 3)
    t = torch.tensor([1.0, 999.0])
    ctx = torch.randn(2, 7, 24)
    ctx_len = torch.tensor([1, 5])
    return model, (feat, t, ctx, ctx_len)
