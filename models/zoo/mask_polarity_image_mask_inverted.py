"""A DETR-style encoder reads its padding mask (True = padding) as a keep-mask and passes `~mask` as the key padding mask.

Both images are padded (one at its last column, one at its last two rows), so every query
still has keys and nothing turns NaN: the inversion is the only fault, and every pixel
attends only to the padding. The mask input's padding is the value that fills the last rows
and columns of each image; the key padding mask hides exactly the other pixels.
Fix: `src_key_padding_mask=mask.flatten(1)`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-polarity",)


class ImageEncoder(nn.Module):
    def __init__(self, channels: int = 8, width: int = 16):
        super().__init__()
        self.project = nn.Conv2d(channels, width, kernel_size=1)
        layer = nn.TransformerEncoderLayer(width, nhead=2, dim_feedforward=32, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)

    def forward(self, features, mask):                        # (B, C, H, W), (B, H, W) with True = padding
        tokens = self.project(features).flatten(2).permute(2, 0, 1)                   # (H*W, B, d)
        keep = ~mask.flatten(1)
        return self.encoder(tokens, src_key_padding_mask=keep)  # BUG: mask-polarity


def build():
    torch.manual_seed(0)
    features = torch.randn(2, 8, 4, 5)
    mask = torch.zeros(2, 4, 5, dtype=torch.bool)
    mask[0, :, -1:] = True                                    # image 0 is one column narrower
    mask[1, -2:, :] = True                                    # image 1 is two rows shorter
    return ImageEncoder().eval(), (features, mask)
