"""Streaming surface-EMG typing decoder (emg2qwerty-style task): wristband sEMG -> keystrokes (CTC).

Input: per-electrode spectral features, (batch, frames, electrodes, features), 16 electrodes
around the wrist. The model works on an (electrode x frame) grid: each dual-path block runs full
attention across the electrodes of a frame (with a learned electrode embedding) and CAUSAL attention
across frames for each electrode, so it can run online. Normalization is cumulative layer norm
(cLN, Conv-TasNet): statistics over channels and electrodes of all frames up to the current one.
In the 16-frame training windows both grid axes have length 16.
"""
import torch
import torch.nn as nn


class CumulativeLayerNorm(nn.Module):
    def __init__(self, channels, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(1, channels, 1, 1))
        self.beta = nn.Parameter(torch.zeros(1, channels, 1, 1))

    def forward(self, x):
        B, C, T, E = x.shape
        count = torch.arange(1, T + 1, device=x.device, dtype=x.dtype) * (C * E)
        mean = x.sum(dim=(1, 3)).cumsum(dim=1) / count
        var = x.pow(2).sum(dim=(1, 3)).cumsum(dim=1) / count - mean ** 2
        x = (x - mean[:, None, :, None]) / torch.sqrt(var[:, None, :, None] + self.eps)
        return x * self.gamma + self.beta


class DualPathBlock(nn.Module):
    def __init__(self, ch, heads, n_electrodes):
        super().__init__()
        self.electrode_emb = nn.Parameter(torch.randn(n_electrodes, ch) * 0.02)
        self.e_norm, self.t_norm = nn.LayerNorm(ch), nn.LayerNorm(ch)
        self.electrode_attn = nn.MultiheadAttention(ch, heads, batch_first=True)
        self.time_attn = nn.MultiheadAttention(ch, heads, batch_first=True)
        self.ff = nn.Sequential(nn.LayerNorm(ch), nn.Linear(ch, 2 * ch), nn.GELU(), nn.Linear(2 * ch, ch))

    def forward(self, x):
        B, C, T, E = x.shape
        h = x.permute(0, 2, 3, 1).reshape(B * T, E, C)
        a = self.e_norm(h + self.electrode_emb[:E])
        h = h + self.electrode_attn(a, a, a, need_weights=False)[0]
        h = h.view(B, T, E, C).transpose(1, 2).reshape(B * E, T, C)
        a = self.t_norm(h)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        h = h + self.time_attn(a, a, a, attn_mask=future, need_weights=False)[0]
        h = h + self.ff(h)
        return h.view(B, E, T, C).permute(0, 3, 2, 1)


class EMGKeystrokeDecoder(nn.Module):
    def __init__(self, n_feats=6, ch=24, heads=4, n_electrodes=16, depth=2, n_keys=30):
        super().__init__()
        self.embed = nn.Linear(n_feats, ch)
        self.norm = CumulativeLayerNorm(ch)
        self.blocks = nn.ModuleList(DualPathBlock(ch, heads, n_electrodes) for _ in range(depth))
        self.head = nn.Linear(ch, n_keys + 1)

    def forward(self, emg):
        x = self.norm(self.embed(emg).permute(0, 3, 1, 2))
        for blk in self.blocks:
            x = blk(x)
        return self.head(x.mean(dim=3).transpose(1, 2)).log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = EMGKeystrokeDecoder().eval()
    emg = torch.randn(2, 16, 16, 6)
    return model, (emg,)
