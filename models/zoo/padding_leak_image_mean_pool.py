"""An image encoder masks its padded pixels in attention, then averages every pixel, padding included, into the image embedding.

Both images are padded to one size (DETR-style `mask`, True = padding) and attention is
masked right, but the pooled embedding is a plain mean over all rows and columns, so what the
padded pixels hold moves it. Fix: average the real pixels only
(`(tokens * keep).sum(0) / keep.sum(0)` with `keep = (~mask.flatten(1)).T[..., None]`).
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("padding-leak",)


class PooledImageEncoder(nn.Module):
    def __init__(self, channels: int = 8, width: int = 16, masked_pool: bool = False):
        super().__init__()
        self.project = nn.Conv2d(channels, width, kernel_size=1)
        layer = nn.TransformerEncoderLayer(width, nhead=2, dim_feedforward=32, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.masked_pool = masked_pool

    def forward(self, features, mask):                        # (B, C, H, W), (B, H, W) with True = padding
        tokens = self.project(features).flatten(2).permute(2, 0, 1)                   # (H*W, B, d)
        tokens = self.encoder(tokens, src_key_padding_mask=mask.flatten(1))
        if self.masked_pool:
            keep = (~mask.flatten(1)).T[..., None].to(tokens.dtype)                   # (H*W, B, 1)
            return (tokens * keep).sum(0) / keep.sum(0)
        return tokens.mean(dim=0)  # BUG: padding-leak


def build():
    torch.manual_seed(0)
    features = torch.randn(2, 8, 4, 5)
    mask = torch.zeros(2, 4, 5, dtype=torch.bool)
    mask[0, :, -1:] = True                                    # image 0 is one column narrower
    mask[1, -2:, :] = True                                    # image 1 is two rows shorter
    return PooledImageEncoder().eval(), (features, mask)
