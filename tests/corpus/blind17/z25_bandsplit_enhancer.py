"""Band-split speech enhancement (BSRNN-style) with inter-band attention.

The complex STFT (B, F, T, 2) is split into sub-bands of different widths; each band is
projected to a common feature size. Band features are modelled with a BLSTM over time and
with self-attention over the band axis, then every band predicts a complex mask.
"""
import torch
import torch.nn as nn


class FeatureNorm(nn.Module):
    """Layer normalisation of each (band, frame) feature vector."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(dim))
        self.beta = nn.Parameter(torch.zeros(dim))
        self.eps = eps

    def forward(self, x):  # (B, K, T, N)
        mu = x.mean(dim=-2, keepdim=True)
        var = (x - mu).pow(2).mean(dim=-2, keepdim=True)
        return (x - mu) / torch.sqrt(var + self.eps) * self.gamma + self.beta


class BandSplitEnhancer(nn.Module):
    def __init__(self, band_widths=(2, 2, 4, 4, 8, 12), feat=32, heads=4):
        super().__init__()
        self.band_widths = list(band_widths)
        self.split = nn.ModuleList([nn.Linear(2 * w, feat) for w in band_widths])
        self.norm_t = FeatureNorm(feat)
        self.blstm = nn.LSTM(feat, feat // 2, batch_first=True, bidirectional=True)
        self.norm_k = FeatureNorm(feat)
        self.band_attn = nn.MultiheadAttention(feat, heads, batch_first=True)
        self.mask_heads = nn.ModuleList([nn.Linear(feat, 4 * w) for w in band_widths])

    def forward(self, spec):
        B, F, T, _ = spec.shape
        bands = torch.split(spec, self.band_widths, dim=1)
        z = torch.stack([proj(b.permute(0, 2, 1, 3).reshape(B, T, -1)) for proj, b in zip(self.split, bands)], 1)
        K, N = z.size(1), z.size(-1)
        # sequence modelling over time, one band at a time
        h, _ = self.blstm(self.norm_t(z).reshape(B * K, T, N))
        z = z + h.reshape(B, K, T, N)
        # band modelling: attention across the K bands of each frame
        y = self.norm_k(z).permute(0, 2, 1, 3).reshape(B * T, K, N)
        y, _ = self.band_attn(y, y, y, need_weights=False)
        z = z + y.reshape(B, T, K, N).permute(0, 2, 1, 3)
        masks = []
        for k, (head, w) in enumerate(zip(self.mask_heads, self.band_widths)):
            m = nn.functional.glu(head(z[:, k]), dim=-1).reshape(B, T, w, 2)
            masks.append(m.permute(0, 2, 1, 3))
        m = torch.cat(masks, 1)  # (B, F, T, 2)
        re = spec[..., 0] * m[..., 0] - spec[..., 1] * m[..., 1]
        im = spec[..., 0] * m[..., 1] + spec[..., 1] * m[..., 0]
        return torch.stack([re, im], -1)


def build():
    torch.manual_seed(0)
    model = BandSplitEnhancer().eval()
    spec = torch.randn(2, 32, 20, 2)
    return model, (spec,)
