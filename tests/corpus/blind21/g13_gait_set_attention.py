"""Gait recognition from silhouette sequences: GaitSet-style set model with frame attention.

A gait sequence is treated as an unordered set of silhouettes: a frame CNN, horizontal part
pooling, self-attention between the frames of each part (no temporal positions), set max-pooling
and a separate fully connected layer per part ("FC bins").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameCNN(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, c // 2, 5, padding=2), nn.LeakyReLU(0.1),
            nn.Conv2d(c // 2, c // 2, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
            nn.Conv2d(c // 2, c, 3, padding=1), nn.LeakyReLU(0.1))

    def forward(self, x):
        return self.net(x)


def part_pooling(fmap, parts):
    """(N, C, H, W) -> (N, C, parts): max + mean over each horizontal strip"""
    N, C, H, W = fmap.shape
    strips = fmap.view(N, C, parts, H // parts, W)
    return strips.amax(dim=(3, 4)) + strips.mean(dim=(3, 4))


class FrameSetAttention(nn.Module):
    def __init__(self, c, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(c, heads, dropout=0.1)      # sequence-first
        self.norm = nn.LayerNorm(c)

    def forward(self, x):
        B, T, P, C = x.shape
        seq = x.permute(1, 0, 2, 3).reshape(T, B * P, C)
        out, _ = self.attn(seq, seq, seq, need_weights=False)
        out = self.norm(seq + out)
        return out.reshape(T, B, P, C).permute(1, 0, 2, 3)


class GaitSetNet(nn.Module):
    def __init__(self, c=32, parts=4, heads=4, emb=16):
        super().__init__()
        self.parts = parts
        self.cnn = FrameCNN(c)
        self.frame_attn = FrameSetAttention(c, heads)
        self.fc_bin = nn.Parameter(torch.randn(parts, c, emb) * c ** -0.5)

    def forward(self, sils):
        B, T = sils.shape[:2]
        fmap = self.cnn(sils.flatten(0, 1))                             # (B*T, C, h, w)
        feats = part_pooling(fmap, self.parts).view(B, T, -1, self.parts).transpose(2, 3)  # (B, T, P, C)
        feats = self.frame_attn(feats)
        pooled = feats.max(dim=1).values                                 # set pooling over frames
        emb = torch.bmm(pooled.transpose(0, 1), self.fc_bin).transpose(0, 1)  # (B, P, emb)
        return F.normalize(emb, dim=-1)


def build():
    torch.manual_seed(0)
    model = GaitSetNet().eval()
    sils = (torch.rand(4, 4, 1, 32, 22) > 0.5).float()               # 4 subjects x 4 frames
    return model, (sils,)
