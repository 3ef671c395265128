"""A 1-D signal classifier that cuts each channel's raw samples into patches and embeds them, then attends over the patches: correct.

`rearrange(signal, "b c (p s) -> b c p s")` cuts an input's own dim before any layer has read it,
and `nn.Linear(s, d)` embeds the s samples of each patch: p counts patches, positions along the
signal, not heads of a feature vector, even where it has as many entries as the channels.
Twin of head_split_signal_patches_no_transpose.
"""

import math

import torch
import torch.nn as nn
from einops import rearrange

EXPECTED: tuple[str, ...] = ()


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
        q, k, v = (rearrange(t, "n p (h e) -> n h p e", h=self.n_heads) for t in self.qkv(x).chunk(3, dim=-1))
        weights = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).softmax(dim=-1)
        x = x + rearrange(weights @ v, "n h p e -> n p (h e)")
        return self.head(rearrange(x, "(b c) p d -> b c p d", b=B).mean(dim=(1, 2)))


def build():
    torch.manual_seed(0)
    return PatchSignalEncoder().eval(), (torch.randn(2, 6, 48),)
