"""12-lead ECG rhythm classifier for recordings of different durations.

Beats are embedded by a strided conv stem, padded to the longest record in the batch and
passed through a small pre-norm Transformer encoder with a key-padding mask. The final
representation is the masked mean over real beats.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvStem(nn.Module):
    def __init__(self, leads, d):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(leads, d, kernel_size=5, stride=5),
            nn.GELU(),
            nn.Conv1d(d, d, kernel_size=1),
        )

    def forward(self, x):  # (B, leads, samples) -> (B, T, d)
        return self.conv(x).transpose(1, 2)


class EncoderLayer(nn.Module):
    def __init__(self, d, heads, max_len):
        super().__init__()
        self.norm1 = nn.LayerNorm([max_len, d])
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, pad):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, key_padding_mask=pad, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class ECGTransformer(nn.Module):
    def __init__(self, leads=12, d=32, heads=4, depth=2, beats=16, n_classes=5):
        super().__init__()
        self.stem = ConvStem(leads, d)
        self.pos = nn.Parameter(torch.randn(1, beats, d) * 0.02)
        self.layers = nn.ModuleList([EncoderLayer(d, heads, beats) for _ in range(depth)])
        self.out = nn.Linear(d, n_classes)

    def forward(self, signal, beat_mask):
        x = self.stem(signal) + self.pos
        pad = beat_mask == 0
        for layer in self.layers:
            x = layer(x, pad)
        keep = beat_mask.unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        return self.out(pooled)


def build():
    torch.manual_seed(0)
    model = ECGTransformer().eval()
    signal = torch.randn(3, 12, 80)
    beat_mask = torch.ones(3, 16, dtype=torch.long)
    beat_mask[0, 11:] = 0
    beat_mask[2, 6:] = 0
    for b in range(3):
        n = int(beat_mask[b].sum()) * 5
        signal[b, :, n:] = 0.0
    return model, (signal, beat_mask)
