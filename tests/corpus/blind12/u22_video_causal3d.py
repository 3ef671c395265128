"""Causal video tokenizer encoder (MAGVIT-v2 / Cosmos style).

3-D convolutions are causal in time: the clip is padded with k_t - 1 copies of the first
frame in front and nothing behind, so frame t's features depend on frames <= t only and the
first frame can be tokenized as an image. Spatial attention runs within each frame; temporal
attention at each spatial location is causal.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class CausalConv3d(nn.Module):
    def __init__(self, cin, cout, kernel=(3, 3, 3), stride=(1, 1, 1)):
        super().__init__()
        self.kt, kh, kw = kernel
        self.space_pad = (kw // 2, kw // 2, kh // 2, kh // 2, 0, 0)
        self.conv = nn.Conv3d(cin, cout, kernel, stride=stride)

    def forward(self, x):
        # x: (B, C, T, H, W)
        x = F.pad(x, self.space_pad)
        x = F.pad(x, (0, 0, 0, 0, self.kt - 1, 0), mode="replicate")
        return self.conv(x)


class FactorizedBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln_s, self.ln_t, self.ln_f = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.spatial = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.temporal = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        B, T, N, D = x.shape
        s = rearrange(self.ln_s(x), "b t n d -> (b t) n d")
        s = self.spatial(s, s, s, need_weights=False)[0]
        x = x + rearrange(s, "(b t) n d -> b t n d", b=B)
        t = rearrange(self.ln_t(x), "b t n d -> (b n) t d")
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), 1)
        t = self.temporal(t, t, t, attn_mask=causal, need_weights=False)[0]
        x = x + rearrange(t, "(b n) t d -> b t n d", b=B)
        return x + self.ff(self.ln_f(x))


class CausalVideoEncoder(nn.Module):
    def __init__(self, in_ch=3, dim=32, heads=4, latent=8):
        super().__init__()
        self.conv_in = CausalConv3d(in_ch, dim // 2)
        self.down = CausalConv3d(dim // 2, dim, stride=(1, 2, 2))
        self.blocks = nn.ModuleList([FactorizedBlock(dim, heads) for _ in range(2)])
        self.to_latent = nn.Linear(dim, latent)

    def forward(self, video):
        h = F.silu(self.conv_in(video))
        h = self.down(h)                                 # (B, dim, T, H/2, W/2)
        x = rearrange(h, "b d t h w -> b t (h w) d")
        for blk in self.blocks:
            x = blk(x)
        return self.to_latent(x)                         # (B, T, N, latent)


def build():
    torch.manual_seed(22)
    model = CausalVideoEncoder().eval()
    video = torch.randn(2, 3, 5, 8, 8)
    return model, (video,)
