"""Perceiver resampler (Flamingo / IDEFICS): a fixed set of learned latents cross-attends to the
visual features of all frames (plus the latents themselves) and returns 8 visual tokens."""
import torch
import torch.nn as nn
from einops import rearrange, repeat


class PerceiverAttention(nn.Module):
    def __init__(self, dim, heads=4, dim_head=8):
        super().__init__()
        self.heads, self.scale = heads, dim_head ** -0.5
        inner = heads * dim_head
        self.norm_media = nn.LayerNorm(dim)
        self.norm_latents = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim, 2 * inner, bias=False)
        self.to_out = nn.Linear(inner, dim, bias=False)

    def forward(self, x, latents):
        x = self.norm_media(x)
        latents = self.norm_latents(latents)
        q = self.to_q(latents)
        k, v = self.to_kv(torch.cat([x, latents], dim=-2)).chunk(2, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in (q, k, v))
        sim = torch.einsum("b h i d, b h j d -> b h i j", q * self.scale, k)
        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        attn = sim.softmax(dim=-2)
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class PerceiverResampler(nn.Module):
    def __init__(self, dim=32, depth=2, num_latents=8, max_frames=4):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, dim))
        self.frame_embs = nn.Parameter(torch.randn(max_frames, dim) * 0.02)
        self.layers = nn.ModuleList(
            nn.ModuleList([PerceiverAttention(dim), nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))])
            for _ in range(depth)
        )
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):  # x: (B, frames, patches, dim)
        B, Fr = x.shape[:2]
        x = x + self.frame_embs[:Fr, None]
        x = rearrange(x, "b f p d -> b (f p) d")
        latents = repeat(self.latents, "n d -> b n d", b=B)
        for attn, ff in self.layers:
            latents = attn(x, latents) + latents
            latents = ff(latents) + latents
        return self.norm(latents)


def build():
    torch.manual_seed(0)
    model = PerceiverResampler().eval()
    vision_features = torch.randn(2, 3, 9, 32)
    return model, (vision_features,)
