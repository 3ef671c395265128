"""Perceiver resampler for a video-language model with clips of different lengths: frames beyond a
clip's length are padding and are hidden from the latents; the latents always see themselves."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResamplerAttention(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.ln_x = nn.LayerNorm(dim)
        self.ln_l = nn.LayerNorm(dim)
        self.q = nn.Linear(dim, dim, bias=False)
        self.kv = nn.Linear(dim, 2 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, latents, media_keep):
        B, N, D = x.shape
        L = latents.size(1)
        x, latents = self.ln_x(x), self.ln_l(latents)
        q = self.q(latents).view(B, L, self.heads, -1).transpose(1, 2)
        k, v = self.kv(torch.cat([x, latents], dim=1)).view(B, N + L, 2, self.heads, -1).permute(2, 0, 3, 1, 4)
        keep = torch.cat([media_keep, media_keep.new_ones(B, L)], dim=1)  # latents are never padding
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])  # (B, H, L, dh)
        return self.out(o.transpose(1, 2).reshape(B, L, D))


class VideoResampler(nn.Module):
    def __init__(self, dim=32, depth=2, num_latents=6, max_frames=5):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, dim))
        self.time_emb = nn.Embedding(max_frames, dim)
        self.attn = nn.ModuleList(ResamplerAttention(dim) for _ in range(depth))
        self.ff = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)
        )
        self.norm = nn.LayerNorm(dim)

    def forward(self, frames, num_frames):  # frames: (B, T, P, D)
        B, T, P, D = frames.shape
        x = frames + self.time_emb(torch.arange(T, device=frames.device))[None, :, None, :]
        x = x.reshape(B, T * P, D)
        frame_keep = torch.arange(T, device=frames.device)[None, :] < num_frames[:, None]
        media_keep = frame_keep.repeat_interleave(P, dim=1)
        lat = self.latents.expand(B, -1, -1)
        for attn, ff in zip(self.attn, self.ff):
            lat = lat + attn(x, lat, media_keep)
            lat = lat + ff(lat)
        return self.norm(lat)


def build():
    torch.manual_seed(0)
    model = VideoResampler().eval()
    frames = torch.randn(3, 5, 4, 32)
    num_frames = torch.tensor([5, 2, 3])
    return model, (frames, num_frames)
