"""A patch transformer for forecasting that standardizes each input series over its look-back window (RevIN's instance norm), then cuts it into patches: correct.

The statistics run over the time axis of the raw input, per sample and per variable, before
any layer reads it; attention then runs over patches, not over those time steps. Twin of
layernorm_axis_input_tokens_over_positions.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PatchForecaster(nn.Module):
    def __init__(self, length: int = 24, patch: int = 6, d_model: int = 16, horizon: int = 4):
        super().__init__()
        self.patch = patch
        self.embed = nn.Linear(patch, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, 2, 32, dropout=0.0, batch_first=True)
        self.head = nn.Linear(length // patch * d_model, horizon)

    def forward(self, series):  # (B, L, C)
        B, L, C = series.shape
        mean = series.mean(dim=1, keepdim=True)
        std = (series.var(dim=1, keepdim=True, unbiased=False) + 1e-5).sqrt()
        x = ((series - mean) / std).permute(0, 2, 1).reshape(B * C, L // self.patch, self.patch)
        h = self.layer(self.embed(x)).reshape(B, C, -1)
        return self.head(h).permute(0, 2, 1) * std + mean  # back to each series' own scale


def build():
    torch.manual_seed(0)
    return PatchForecaster().eval(), (torch.randn(2, 24, 3),)
