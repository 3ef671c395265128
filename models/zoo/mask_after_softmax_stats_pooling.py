"""Attentive statistics pooling over time whose frame mask multiplies the weights after the softmax, `softmax(e, dim=2) * mask`: the padded frames still take their share of each softmax.

A small pointwise network scores every channel of every frame (no query-key product), the
softmax over time (dim=2) turns each channel's scores into weights, and the weighted mean and
standard deviation of the frames are pooled into one utterance embedding. Zeroing the padded
frames' weights after the softmax leaves the real frames' weights divided by a sum that
includes the padded frames' scores: they sum to less than 1 and move with what the padding
holds. Fix: `e.masked_fill(frame_mask[:, None, :] == 0, float("-inf"))` before the softmax.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-after-softmax",)


class AttentiveStatsPooling(nn.Module):
    def __init__(self, n_mels: int = 10, channels: int = 16, bottleneck: int = 8, emb: int = 12):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(n_mels, channels, kernel_size=1), nn.ReLU())
        self.attention = nn.Sequential(
            nn.Conv1d(channels, bottleneck, kernel_size=1), nn.Tanh(), nn.Conv1d(bottleneck, channels, kernel_size=1)
        )
        self.embed = nn.Linear(2 * channels, emb)

    def forward(self, feats, frame_mask):
        # feats: (B, n_mels, T); frame_mask: (B, T), 1 on real frames
        x = self.frontend(feats)                                    # (B, C, T)
        e = self.attention(x)                                       # (B, C, T)
        w = torch.softmax(e, dim=2) * frame_mask[:, None, :]  # BUG: mask-after-softmax
        mean = (w * x).sum(dim=2)
        std = ((w * x * x).sum(dim=2) - mean * mean).clamp(min=1e-5).sqrt()
        return self.embed(torch.cat([mean, std], dim=1))


def build():
    torch.manual_seed(0)
    feats = torch.randn(3, 10, 12)
    frame_mask = torch.ones(3, 12, dtype=torch.long)
    frame_mask[1, 9:] = 0
    frame_mask[2, 5:] = 0
    return AttentiveStatsPooling().eval(), (feats, frame_mask)
