"""Spectrogram transformer with factorised frequency / time position embeddings.

Instead of one table over the flattened patch grid, the model learns a frequency table
(1, D, F', 1) and a time table (1, D, 1, T_max) that are broadcast over the patch grid
(B, D, F', T') before flattening, so clips of any length up to T_max can be embedded.
"""
import torch
import torch.nn as nn


class FactorisedPosPatchEmbed(nn.Module):
    def __init__(self, n_mels=32, patch=4, dim=32, max_time_patches=16):
        super().__init__()
        self.proj = nn.Conv2d(1, dim, kernel_size=patch, stride=patch)
        self.freq_pos = nn.Parameter(torch.randn(1, dim, n_mels // patch, 1) * 0.1)
        self.time_pos = nn.Parameter(torch.randn(1, dim, 1, max_time_patches) * 0.1)

    def forward(self, spec):  # spec: (B, n_mels, frames)
        x = self.proj(spec.unsqueeze(1))  # (B, D, F', T')
        x = x + self.freq_pos + self.time_pos[..., : x.size(-1)]
        return x.flatten(2).transpose(1, 2)  # (B, F'*T', D), frequency-major


class SpecTransformer(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, n_classes=8):
        super().__init__()
        self.embed = FactorisedPosPatchEmbed(dim=dim)
        self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.1)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.1, activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, n_classes))

    def forward(self, spec):
        x = self.embed(spec)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], 1)
        return self.head(self.encoder(x)[:, 0])


def build():
    torch.manual_seed(0)
    model = SpecTransformer().eval()
    spec = torch.randn(3, 32, 48)
    return model, (spec,)
