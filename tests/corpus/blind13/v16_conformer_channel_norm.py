"""Conformer-style speech encoder block on padded utterances.

Macaron feed-forwards, multi-head self-attention with a key padding mask and a depthwise
convolution module; padded frames are zeroed before the convolution.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChannelNorm(nn.Module):
    """Layer normalization over channels."""

    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        var, mean = torch.var_mean(x, dim=-2, keepdim=True, unbiased=False)
        return (x - mean) / torch.sqrt(var + self.eps) * self.gamma + self.beta


class ConformerBlock(nn.Module):
    def __init__(self, d=32, heads=4, kernel=5):
        super().__init__()
        self.ff1 = nn.Sequential(ChannelNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
        self.attn_norm = ChannelNorm(d)
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.conv_norm = ChannelNorm(d)
        self.pw1 = nn.Conv1d(d, 2 * d, 1)
        self.dw = nn.Conv1d(d, d, kernel, padding=kernel // 2, groups=d)
        self.pw2 = nn.Conv1d(d, d, 1)
        self.ff2 = nn.Sequential(ChannelNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
        self.final_norm = ChannelNorm(d)

    def forward(self, x, pad):
        x = x + 0.5 * self.ff1(x)
        h = self.attn_norm(x)
        a, _ = self.attn(h, h, h, key_padding_mask=pad, need_weights=False)
        x = x + a
        h = self.conv_norm(x).masked_fill(pad.unsqueeze(-1), 0.0).transpose(1, 2)
        h = self.pw2(F.silu(self.dw(F.glu(self.pw1(h), dim=1))))
        x = x + h.transpose(1, 2)
        x = x + 0.5 * self.ff2(x)
        return self.final_norm(x)


class SpeechEncoder(nn.Module):
    def __init__(self, n_mels=16, d=32, n_layers=2, n_tokens=24):
        super().__init__()
        self.inp = nn.Linear(n_mels, d)
        self.blocks = nn.ModuleList(ConformerBlock(d) for _ in range(n_layers))
        self.ctc = nn.Linear(d, n_tokens)

    def forward(self, mels, lengths):
        T = mels.size(1)
        pad = torch.arange(T, device=mels.device)[None, :] >= lengths[:, None]
        x = self.inp(mels)
        for blk in self.blocks:
            x = blk(x, pad)
        return self.ctc(x).log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = SpeechEncoder().eval()
    mels = torch.randn(2, 14, 16)
    lengths = torch.tensor([14, 9])
    return model, (mels, lengths)
