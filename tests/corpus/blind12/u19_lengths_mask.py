"""Keyword-spotting transformer over log-mel frames.

Utterances are right padded to the longest one and described by `lengths` (frames). The
encoder uses torch's TransformerEncoderLayer with a key padding mask (True = ignore), and the
utterance embedding is the mean over real frames.
"""
import math

import torch
import torch.nn as nn


def lengths_to_padding_mask(lengths, max_len):
    """(B,) lengths -> (B, T) bool, True at padded frames."""
    frames = torch.arange(max_len, device=lengths.device)[None, :]
    return frames > lengths[:, None]


class KWSTransformer(nn.Module):
    def __init__(self, n_mels=20, d_model=32, nhead=4, layers=2, n_keywords=6, max_frames=32):
        super().__init__()
        self.frontend = nn.Sequential(nn.Linear(n_mels, d_model), nn.GELU(), nn.LayerNorm(d_model))
        pos = torch.arange(max_frames).float()[:, None]
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_frames, d_model)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)
        self.layers = nn.ModuleList([
            nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, dropout=0.1,
                                       batch_first=True, norm_first=True) for _ in range(layers)])
        self.classifier = nn.Linear(d_model, n_keywords)

    def forward(self, feats, lengths):
        B, T, _ = feats.shape
        pad = lengths_to_padding_mask(lengths, T)
        x = self.frontend(feats) + self.pe[:T]
        for layer in self.layers:
            x = layer(x, src_key_padding_mask=pad)
        keep = (~pad)[..., None].float()
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.classifier(pooled)


def build():
    torch.manual_seed(19)
    model = KWSTransformer().eval()
    lengths = torch.tensor([14, 9, 5])
    feats = torch.randn(3, 14, 20)
    feats = feats * (torch.arange(14)[None, :, None] < lengths[:, None, None])
    return model, (feats, lengths)
