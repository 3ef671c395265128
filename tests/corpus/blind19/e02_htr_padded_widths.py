"""Handwriting line recognizer for a batch of lines of different widths.

Lines are right-padded to the widest image; the number of valid feature columns per line is
passed in and turned into a key padding mask for the encoder (True = padding)."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def column_mask(widths, W):
    return torch.arange(W, device=widths.device)[None, :] >= widths[:, None]


class ConvFrontend(nn.Module):
    def __init__(self, d):
        super().__init__()
        # kernel width 1 along the line so padded columns never bleed into real ones
        self.conv1 = nn.Conv2d(1, 16, (3, 1), padding=(1, 0))
        self.conv2 = nn.Conv2d(16, d, (3, 1), padding=(1, 0))

    def forward(self, img):
        f = F.relu(self.conv2(F.relu(self.conv1(img))))
        return f.amax(2).transpose(1, 2)  # (B, W, d)


class EncoderBlock(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, h, batch_first=True)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, pad):
        y = self.ln1(x)
        x = x + self.attn(y, y, y, key_padding_mask=pad, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


class PaddedHTR(nn.Module):
    def __init__(self, n_chars=50, d=32, h=4, depth=2, max_w=64):
        super().__init__()
        self.front = ConvFrontend(d)
        self.col_pos = nn.Embedding(max_w, d)
        self.blocks = nn.ModuleList(EncoderBlock(d, h) for _ in range(depth))
        self.out = nn.Linear(d, n_chars + 1)

    def forward(self, img, widths):
        x = self.front(img)
        W = x.size(1)
        x = x + self.col_pos(torch.arange(W, device=x.device))[None]
        pad = column_mask(widths, W)
        for blk in self.blocks:
            x = blk(x, pad)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = PaddedHTR().eval()
    img = torch.randn(3, 1, 6, 20)
    widths = torch.tensor([20, 14, 9])
    for b, w in enumerate(widths.tolist()):
        img[b, :, :, w:] = 0.0
    return model, (img, widths)
