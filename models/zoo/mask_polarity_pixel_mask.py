"""A DETR-style decoder gets an image processor's `pixel_mask` (1 = real pixel) as its key padding mask (True = ignore).

The feature map is flattened to (H*W, B, d) keys for a sequence-first `nn.TransformerDecoder`.
`memory_key_padding_mask` hides the keys where it is True, and `pixel_mask.bool()` is True at
the real pixels: the object queries read only the padding at the images' last rows and
columns. Fix: `memory_key_padding_mask=pixel_mask.flatten(1) == 0`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-polarity",)


class DetectionHead(nn.Module):
    def __init__(self, channels: int = 8, width: int = 16, n_queries: int = 4, n_classes: int = 3):
        super().__init__()
        self.project = nn.Conv2d(channels, width, kernel_size=1)
        self.queries = nn.Embedding(n_queries, width)
        layer = nn.TransformerDecoderLayer(width, nhead=2, dim_feedforward=32, dropout=0.0)
        self.decoder = nn.TransformerDecoder(layer, num_layers=1)
        self.classify = nn.Linear(width, n_classes + 1)

    def forward(self, features, pixel_mask):                  # (B, C, H, W), (B, H, W) with 1 = real
        memory = self.project(features).flatten(2).permute(2, 0, 1)                   # (H*W, B, d)
        targets = self.queries.weight.unsqueeze(1).repeat(1, features.shape[0], 1)    # (Q, B, d)
        ignore = pixel_mask.flatten(1).bool()
        decoded = self.decoder(targets, memory, memory_key_padding_mask=ignore)  # BUG: mask-polarity
        return self.classify(decoded)


def build():
    torch.manual_seed(0)
    features = torch.randn(2, 8, 4, 5)
    pixel_mask = torch.ones(2, 4, 5, dtype=torch.long)
    pixel_mask[0, :, 4:] = 0                                  # image 0 is one column narrower
    pixel_mask[1, 3:, :] = 0                                  # image 1 is one row shorter
    pixel_mask[1, :, 3:] = 0                                  # ... and two columns narrower
    return DetectionHead().eval(), (features, pixel_mask)
