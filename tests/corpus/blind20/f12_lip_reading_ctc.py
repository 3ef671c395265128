"""Visual speech recognition (lip reading) from grayscale mouth crops.

Front-end as in the LRS-style VSR recipes: one spatio-temporal 3D convolution with batch norm
and max pooling, then a per-frame 2D CNN trunk; a Transformer encoder over the frame features
with a padding mask from the clip lengths; CTC over characters. Frames past a clip's length are
zeroed before the front-end so the 3D convolution sees the same zero border as an unpadded clip.
"""
import math

import torch
import torch.nn as nn


class VisualFrontEnd(nn.Module):
    def __init__(self, ch=16, dim=32):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv3d(1, ch, (3, 5, 5), stride=(1, 2, 2), padding=(1, 2, 2), bias=False),
            nn.BatchNorm3d(ch, track_running_stats=False),
            nn.PReLU(ch),
            nn.MaxPool3d((1, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1)),
        )
        self.trunk = nn.Sequential(
            nn.Conv2d(ch, 2 * ch, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(2 * ch), nn.ReLU(),
            nn.Conv2d(2 * ch, 2 * ch, 3, padding=1, bias=False), nn.BatchNorm2d(2 * ch), nn.ReLU(),
        )
        self.proj = nn.Linear(2 * ch, dim)

    def forward(self, video):
        x = self.stem(video)
        B, C, T, H, W = x.shape
        x = self.trunk(x.transpose(1, 2).reshape(B * T, C, H, W))
        return self.proj(x.mean(dim=(2, 3)).view(B, T, -1))


class LipReader(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, n_chars=40, max_len=64):
        super().__init__()
        self.frontend = VisualFrontEnd(dim=dim)
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
        pe = torch.zeros(max_len, dim)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)
        layer = nn.TransformerEncoderLayer(dim, heads, 4 * dim, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.ctc = nn.Linear(dim, n_chars + 1)

    def forward(self, video, lengths):
        T = video.size(2)
        valid = torch.arange(T, device=video.device)[None, :] < lengths[:, None]
        video = video * valid[:, None, :, None, None]
        x = self.frontend(video) + self.pe[:T]
        h = self.encoder(x, src_key_padding_mask=~valid)
        return self.ctc(h).log_softmax(dim=-1)


def build():
    torch.manual_seed(0)
    model = LipReader().eval()
    video = torch.rand(3, 1, 16, 24, 24)
    lengths = torch.tensor([16, 12, 9])
    return model, (video, lengths)
