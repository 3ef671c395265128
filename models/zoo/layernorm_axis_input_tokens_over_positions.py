"""An encoder given token features (B, T, d) that standardizes them over the T positions before attending over those same positions.

Each token's features should be normalized over its own d features; over dim=1 every token's
input depends on every other token of the sequence, before attention has run. Fix:
`mean(dim=-1, keepdim=True)` and `var(dim=-1, ...)`. Twin of ok_series_standardized_before_patching.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("layernorm-axis",)


class FeatureEncoder(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(d_model, 2, 32, dropout=0.0, batch_first=True)

    def forward(self, feats):  # (B, T, d)
        mean = feats.mean(dim=1, keepdim=True)  # BUG: layernorm-axis
        std = (feats.var(dim=1, keepdim=True, unbiased=False) + 1e-5).sqrt()
        return self.layer((feats - mean) / std)


def build():
    torch.manual_seed(0)
    return FeatureEncoder().eval(), (torch.randn(2, 6, 16),)
