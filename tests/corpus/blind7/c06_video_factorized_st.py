import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class MHA(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, causal=False):
        q, k, v = rearrange(self.qkv(x), "b n (three h d) -> three b h n d", three=3, h=self.heads)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return self.proj(rearrange(out, "b h n d -> b n (h d)"))


class SpaceTimeBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm_t = nn.LayerNorm(dim)
        self.temporal = MHA(dim, heads)
        self.norm_s = nn.LayerNorm(dim)
        self.spatial = MHA(dim, heads)
        self.norm_ff = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        B, T, N, D = x.shape
        h = rearrange(x, "b t n d -> (b n) t d")
        h = h + self.temporal(self.norm_t(h), causal=True)
        h = h.reshape(B * T, N, D)
        h = h + self.spatial(self.norm_s(h))
        h = h + self.ff(self.norm_ff(h))
        return h.reshape(B, T, N, D)


class FrameCausalVideoEncoder(nn.Module):
    def __init__(self, dim=32, heads=4, frames=4, patches=6, depth=1):
        super().__init__()
        self.time_embed = nn.Parameter(torch.randn(1, frames, 1, dim) * 0.02)
        self.space_embed = nn.Parameter(torch.randn(1, 1, patches, dim) * 0.02)
        self.blocks = nn.ModuleList([SpaceTimeBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        x = x + self.time_embed + self.space_embed
        for blk in self.blocks:
            x = blk(x)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = FrameCausalVideoEncoder().eval()
    video_tokens = torch.randn(2, 4, 6, 32)
    return model, (video_tokens,)
