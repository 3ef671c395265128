"""Image classifier on a tiny random Swin Transformer backbone from transformers.

Swin computes attention inside non-overlapping windows and, in every second block, inside
windows shifted by half a window with a cyclic roll; the wrapped-around regions are kept
apart by an additive mask (-100) built by the library. The pooled feature is classified.
"""
import torch
import torch.nn as nn
from transformers import SwinConfig, SwinModel


class SwinClassifier(nn.Module):
    def __init__(self, n_classes=5):
        super().__init__()
        config = SwinConfig(image_size=16, patch_size=2, num_channels=3, embed_dim=16, depths=[2, 2],
                            num_heads=[2, 4], window_size=2, mlp_ratio=2.0)
        self.backbone = SwinModel(config)
        self.head = nn.Linear(self.backbone.num_features, n_classes)

    def forward(self, pixel_values):
        out = self.backbone(pixel_values=pixel_values)
        return self.head(out.pooler_output), out.last_hidden_state


def build():
    torch.manual_seed(51)
    model = SwinClassifier().eval()
    return model, (torch.randn(2, 3, 16, 16),)
