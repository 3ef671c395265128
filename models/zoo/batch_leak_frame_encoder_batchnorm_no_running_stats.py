"""A frame encoder whose BatchNorm keeps no running statistics, so even in eval mode it normalizes with the batch's.

The convolutional stem is an nn.Sequential; its BatchNorm1d is made with
`track_running_stats=False`, so eval mode still takes mean and variance over the whole batch
and every clip's features move with the other clips. The finding stands where the BatchNorm
was made, its argument being the cause. Fix: drop `track_running_stats=False`. Twin of
ok_frame_encoder_batchnorm_running_stats.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("batch-leak",)


class FrameEncoder(nn.Module):
    def __init__(self, features: int = 6, d_model: int = 16):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv1d(features, d_model, 3, padding=1),
            nn.BatchNorm1d(d_model, track_running_stats=False),  # BUG: batch-leak
            nn.ReLU(),
        )
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, frames: torch.Tensor) -> torch.Tensor:
        x = self.stem(frames.transpose(1, 2)).transpose(1, 2)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) / math.sqrt(q.shape[-1])
        return x + scores.softmax(dim=-1) @ v


def build():
    torch.manual_seed(0)
    return FrameEncoder().eval(), (torch.randn(3, 7, 6),)
