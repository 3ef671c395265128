"""A 1-D signal classifier that embeds patches of each channel's raw samples, then splits its projections into heads with `reshape(N, H, P, d_h)` and no transpose.

Cutting the raw samples into patches is no head split; cutting the embedded features of each
patch with `reshape(N, H, P, d_h)` is one, and a wrong one: the 'patch' axis then mixes patches and
features. Fix: `.reshape(N, P, H, d_h).transpose(1, 2)`. Twin of ok_signal_patches_embedded.
"""

import math

import torch
import torch.nn as nn
from einops import rearrange

EXPECTED: tuple[str, ...] = ("head-split",)


class PatchSignalEncoder(nn.Module):
    def __init__(self, patch: int = 8, d_model: int = 16, n_heads: int = 2, classes: int = 3):
        super().__init__()
        self.patch, self.n_heads = patch, n_heads
        self.embed = nn.Linear(patch, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, classes)

    def forward(self, signal: torch.Tensor) -> torch.Tensor:
        B, C, _ = signal.shape
        x = rearrange(self.embed(rearrange(signal, "b c (p s) -> b c p s", s=self.patch)), "b c p d -> (b c) p d")
        N, P, D = x.shape
        q, k, v = (t.reshape(N, self.n_heads, P, D // self.n_heads) for t in self.qkv(x).chunk(3, dim=-1))  # BUG: head-split
        weights = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).softmax(dim=-1)
        x = x + (weights @ v).transpose(1, 2).reshape(N, P, D)
        return self.head(rearrange(x, "(b c) p d -> b c p d", b=B).mean(dim=(1, 2)))


def build():
    torch.manual_seed(0)
    return PatchSignalEncoder().eval(), (torch.randn(2, 6, 48),)
