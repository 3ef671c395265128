"""DETR-style encoder over a padded image batch: sequence-first `nn.MultiheadAttention` with a `key_padding_mask` from the pixel mask: correct.

Images of different sizes are padded to one canvas; the pixel mask (True = padding) is
shrunk to the feature map, flattened, and handed to the attention as `key_padding_mask`, so
no query reads a padded cell. The patch embedding is strided (no overlap), so padded pixels
reach only padded cells.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def sine_positions(mask, channels, temperature=10000.0):
    """DETR's sine positions, counted over the real cells only (so padding does not shift them)."""
    not_mask = ~mask
    y = not_mask.cumsum(1, dtype=torch.float32)
    x = not_mask.cumsum(2, dtype=torch.float32)
    y = y / (y[:, -1:, :] + 1e-6) * 2 * math.pi
    x = x / (x[:, :, -1:] + 1e-6) * 2 * math.pi
    half = channels // 2
    dim_t = temperature ** (2 * (torch.arange(half, dtype=torch.float32) // 2) / half)
    pos_x, pos_y = x[:, :, :, None] / dim_t, y[:, :, :, None] / dim_t
    pos_x = torch.stack((pos_x[:, :, :, 0::2].sin(), pos_x[:, :, :, 1::2].cos()), dim=4).flatten(3)
    pos_y = torch.stack((pos_y[:, :, :, 0::2].sin(), pos_y[:, :, :, 1::2].cos()), dim=4).flatten(3)
    return torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)  # (B, C, H, W)


class PaddedImageEncoder(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, patch: int = 4):
        super().__init__()
        self.patch = patch
        self.backbone = nn.Conv2d(3, d_model, kernel_size=patch, stride=patch)
        self.attn = nn.MultiheadAttention(d_model, n_heads)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, pixels, pixel_mask):
        features = self.backbone(pixels)  # (B, C, H, W)
        B, C, H, W = features.shape
        mask = F.interpolate(pixel_mask[None].float(), size=(H, W)).to(torch.bool)[0]  # (B, H, W), True = padding
        pos = sine_positions(mask, C).flatten(2).permute(2, 0, 1)  # (HW, B, C)
        src = features.flatten(2).permute(2, 0, 1)  # (HW, B, C): sequence first
        q = k = src + pos
        out, _ = self.attn(q, k, src, key_padding_mask=mask.flatten(1))
        return self.norm(src + out)


def build():
    torch.manual_seed(0)
    model = PaddedImageEncoder().eval()
    pixels = torch.randn(2, 3, 16, 24)
    pixel_mask = torch.zeros(2, 16, 24, dtype=torch.bool)
    pixel_mask[1, :, 16:] = True  # the second image is 16 x 16, padded on the right
    pixel_mask[1, 12:, :] = True  # ... and 12 rows high
    pixels[pixel_mask[:, None].expand_as(pixels)] = 0.0
    return model, (pixels, pixel_mask)
