"""Self-attention block of a diffusion U-Net on channels_last feature maps.

The (B, C, H, W) activations live in torch.channels_last memory format for speed. The block
flattens pixels into a sequence with permute(0, 2, 3, 1) (a free view in channels_last),
normalizes with GroupNorm (per sample, by design), attends over all H*W pixels and restores
the layout.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelSelfAttention(nn.Module):
    def __init__(self, channels=32, heads=4, groups=8):
        super().__init__()
        self.h = heads
        self.norm = nn.GroupNorm(groups, channels)
        self.to_qkv = nn.Conv2d(channels, 3 * channels, 1)
        self.proj = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        qkv = self.to_qkv(self.norm(x))                                    # (B, 3C, H, W)
        seq = qkv.permute(0, 2, 3, 1).reshape(B, H * W, 3, self.h, C // self.h)
        q, k, v = seq.permute(2, 0, 3, 1, 4)                               # (B, heads, HW, dh)
        a = F.scaled_dot_product_attention(q, k, v)
        a = a.transpose(1, 2).reshape(B, H, W, C).permute(0, 3, 1, 2)
        a = a.contiguous(memory_format=torch.channels_last)
        return x + self.proj(a)


class UNetMidBlock(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.res_in = nn.Conv2d(channels, channels, 1)
        self.attn = PixelSelfAttention(channels)
        self.res_out = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        x = x.contiguous(memory_format=torch.channels_last)
        x = x + self.res_in(F.silu(x))
        x = self.attn(x)
        return x + self.res_out(F.silu(x))


def build():
    torch.manual_seed(0)
    model = UNetMidBlock().eval().to(memory_format=torch.channels_last)
    x = torch.randn(2, 32, 3, 5).contiguous(memory_format=torch.channels_last)
    return model, (x,)
