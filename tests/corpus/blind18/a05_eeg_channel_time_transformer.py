"""EEG decoding with factorized attention: electrodes attend to each other within a time patch
(spatial attention), then each electrode's patches attend over time (temporal attention).

Input: (batch, channels, samples). Each channel is cut into non-overlapping patches.
"""
import torch
import torch.nn as nn
from einops import rearrange


class FactorizedBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.norm_s = nn.LayerNorm(d)
        self.spatial = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm_t = nn.LayerNorm(d)
        self.temporal = nn.MultiheadAttention(d, heads, batch_first=True)
        self.norm_f = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        B, C, P, D = x.shape
        # across electrodes, one patch index at a time
        s = rearrange(x, "b c p d -> (b p) c d")
        h = self.norm_s(s)
        s = s + self.spatial(h, h, h, need_weights=False)[0]
        # across patches, one electrode at a time
        t = rearrange(s, "(b p) c d -> (b c) p d", b=B)
        h = self.norm_t(t)
        t = t + self.temporal(h, h, h, need_weights=False)[0]
        t = t + self.ff(self.norm_f(t))
        return rearrange(t, "(b c) p d -> b c p d", b=B)


class EEGFormer(nn.Module):
    def __init__(self, n_channels=8, patch=16, d=32, heads=4, depth=2, n_patches=8, n_classes=4):
        super().__init__()
        self.patch = patch
        self.embed = nn.Linear(patch, d)
        self.chan_emb = nn.Parameter(torch.randn(n_channels, 1, d) * 0.02)
        self.time_emb = nn.Parameter(torch.randn(1, n_patches, d) * 0.02)
        self.blocks = nn.ModuleList([FactorizedBlock(d, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_classes)

    def forward(self, eeg):
        x = rearrange(eeg, "b c (p s) -> b c p s", s=self.patch)
        x = self.embed(x) + self.chan_emb + self.time_emb
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x.mean(dim=(1, 2))))


def build():
    torch.manual_seed(0)
    model = EEGFormer().eval()
    eeg = torch.randn(3, 8, 128)
    return model, (eeg,)
