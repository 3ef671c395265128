"""Temporal attention over video frames in nn.MultiheadAttention's default (frames, batch·patches, d) layout, reshaped straight to (batch, frames, patches, d) afterwards.

The memory is still frame-major: the reshape regroups it, so "sample 0" receives frames of
several samples. Fix: `t.reshape(Fr, B, P, D).permute(1, 0, 2, 3)`. Twin of
ok_frames_attended_then_permuted_back.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("batch-leak",)


class TemporalMixer(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, max_frames: int = 8):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads)
        self.frame_pos = nn.Parameter(torch.randn(max_frames, 1, d_model) * 0.02)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, video):  # (B, frames, patches, d)
        B, Fr, P, D = video.shape
        t = video.permute(1, 0, 2, 3).reshape(Fr, B * P, D) + self.frame_pos[:Fr]
        t = t + self.attn(t, t, t, need_weights=False)[0]
        x = t.reshape(B, Fr, P, D)  # BUG: batch-leak
        return self.out(x.reshape(B, Fr * P, D))


def build():
    torch.manual_seed(0)
    return TemporalMixer().eval(), (torch.randn(3, 4, 5, 16),)
