"""Motion module of a video diffusion U-Net (AnimateDiff style): frames are folded into the batch
dimension by the U-Net, and the temporal transformer attends across frames at each pixel."""
import math

import torch
import torch.nn as nn
from einops import rearrange


def sinusoidal(n, dim):
    pos = torch.arange(n, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * (-math.log(10000.0) / dim))
    pe = torch.zeros(n, dim)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe


class TemporalTransformer(nn.Module):
    def __init__(self, channels=32, heads=4, max_frames=16):
        super().__init__()
        self.norm = nn.LayerNorm(channels)
        self.proj_in = nn.Linear(channels, channels)
        self.attn = nn.MultiheadAttention(channels, heads, batch_first=True)
        self.ff_norm = nn.LayerNorm(channels)
        self.ff = nn.Sequential(nn.Linear(channels, 4 * channels), nn.GELU(), nn.Linear(4 * channels, channels))
        self.proj_out = nn.Linear(channels, channels)
        self.register_buffer("pe", sinusoidal(max_frames, channels), persistent=False)

    def forward(self, hidden_states, num_frames):
        bf, c, h, w = hidden_states.shape
        x = rearrange(hidden_states, "(b f) c h w -> (b h w) f c", f=num_frames)
        x = self.proj_in(self.norm(x)) + self.pe[:num_frames]
        a, _ = self.attn(x, x, x, need_weights=False)
        x = x + a
        x = x + self.ff(self.ff_norm(x))
        x = rearrange(self.proj_out(x), "(b h w) f c -> (b f) c h w", h=h, w=w)
        return hidden_states + x


def build():
    torch.manual_seed(0)
    model = TemporalTransformer().eval()
    batch, frames = 2, 6
    hidden_states = torch.randn(batch * frames, 32, 4, 4)
    return model, (hidden_states,), {"num_frames": frames}
