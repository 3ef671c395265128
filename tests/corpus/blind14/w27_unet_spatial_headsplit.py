"""Spatial transformer of a latent-diffusion U-Net: GroupNorm, 1x1 in-projection, self-attention
over pixels, cross-attention to the text encoder states, GEGLU feed-forward, 1x1 out-projection."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim=None, heads=4, dim_head=8):
        super().__init__()
        inner = heads * dim_head
        context_dim = context_dim or query_dim
        self.heads, self.dim_head = heads, dim_head
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner, query_dim), nn.Dropout(0.0))

    def split_heads(self, t):
        b, n, _ = t.shape
        return t.reshape(b, self.heads, n, self.dim_head)

    def forward(self, x, context=None):
        context = x if context is None else context
        q = self.split_heads(self.to_q(x))
        k = self.split_heads(self.to_k(context))
        v = self.split_heads(self.to_v(context))
        sim = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        out = torch.matmul(sim.softmax(dim=-1), v)
        b, h, n, d = out.shape
        return self.to_out(out.transpose(1, 2).reshape(b, n, h * d))


class GEGLU(nn.Module):
    def __init__(self, dim_in, dim_out):
        super().__init__()
        self.proj = nn.Linear(dim_in, dim_out * 2)

    def forward(self, x):
        x, gate = self.proj(x).chunk(2, dim=-1)
        return x * F.gelu(gate)


class SpatialTransformer(nn.Module):
    def __init__(self, channels=32, context_dim=24, heads=4):
        super().__init__()
        self.norm = nn.GroupNorm(8, channels, eps=1e-6)
        self.proj_in = nn.Conv2d(channels, channels, 1)
        self.norm1, self.norm2, self.norm3 = (nn.LayerNorm(channels) for _ in range(3))
        self.attn1 = CrossAttention(channels, heads=heads, dim_head=channels // heads)
        self.attn2 = CrossAttention(channels, context_dim, heads=heads, dim_head=channels // heads)
        self.ff = nn.Sequential(GEGLU(channels, 4 * channels), nn.Linear(4 * channels, channels))
        self.proj_out = nn.Conv2d(channels, channels, 1)

    def forward(self, x, context):
        b, c, h, w = x.shape
        x_in = x
        x = self.proj_in(self.norm(x))
        x = x.permute(0, 2, 3, 1).reshape(b, h * w, c)
        x = x + self.attn1(self.norm1(x))
        x = x + self.attn2(self.norm2(x), context=context)
        x = x + self.ff(self.norm3(x))
        x = x.reshape(b, h, w, c).permute(0, 3, 1, 2)
        return self.proj_out(x) + x_in


def build():
    torch.manual_seed(0)
    model = SpatialTransformer().eval()
    x = torch.randn(2, 32, 6, 6)
    context = torch.randn(2, 7, 24)  # text encoder hidden states
    return model, (x, context)
