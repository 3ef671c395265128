"""LeViT attention block (Graham et al. 2021) on a 4x4 feature map.

Keys are narrower than values (attn_ratio), activations are Hardswish, and instead of positional
embeddings each head learns a translation-invariant bias indexed by the absolute (dx, dy) offset
between query and key. The gathered (heads, N, N) bias table is cached in eval mode.
"""
import itertools

import torch
import torch.nn as nn


class ConvNormLinear(nn.Sequential):
    def __init__(self, a, b):
        super().__init__(nn.Linear(a, b, bias=False), nn.BatchNorm1d(b))

    def forward(self, x):
        l, bn = self[0], self[1]
        x = l(x)
        return bn(x.flatten(0, 1)).reshape_as(x)


class LeViTAttention(nn.Module):
    def __init__(self, dim, key_dim=8, num_heads=4, attn_ratio=2, resolution=4):
        super().__init__()
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.scale = key_dim ** -0.5
        self.d = int(attn_ratio * key_dim)
        self.dh = self.d * num_heads
        self.qkv = ConvNormLinear(dim, self.dh + 2 * key_dim * num_heads)
        self.proj = nn.Sequential(nn.Hardswish(), ConvNormLinear(self.dh, dim))

        points = list(itertools.product(range(resolution), range(resolution)))
        offsets, idxs = {}, []
        for p1 in points:
            for p2 in points:
                off = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
                if off not in offsets:
                    offsets[off] = len(offsets)
                idxs.append(offsets[off])
        self.attention_biases = nn.Parameter(torch.randn(num_heads, len(offsets)) * 0.5)
        self.register_buffer("attention_bias_idxs", torch.LongTensor(idxs).view(len(points), len(points)),
                             persistent=False)

    @torch.no_grad()
    def train(self, mode=True):
        super().train(mode)
        if mode and hasattr(self, "ab"):
            del self.ab
        else:
            self.ab = self.attention_biases[:, self.attention_bias_idxs]
        return self

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, self.num_heads, -1).split([self.key_dim, self.key_dim, self.d], dim=3)
        q, k, v = q.permute(0, 2, 1, 3), k.permute(0, 2, 1, 3), v.permute(0, 2, 1, 3)
        bias = self.attention_biases[:, self.attention_bias_idxs] if self.training else self.ab
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, self.dh)
        return self.proj(x)


class LeViTStage(nn.Module):
    def __init__(self, dim=32, depth=2, resolution=4):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, dim // 2, 3, 2, 1), nn.Hardswish(), nn.Conv2d(dim // 2, dim, 3, 2, 1))
        self.attn = nn.ModuleList([LeViTAttention(dim, resolution=resolution) for _ in range(depth)])
        self.mlp = nn.ModuleList([nn.Sequential(ConvNormLinear(dim, 2 * dim), nn.Hardswish(), ConvNormLinear(2 * dim, dim))
                                  for _ in range(depth)])
        self.head = nn.Linear(dim, 10)

    def forward(self, img):
        x = self.stem(img).flatten(2).transpose(1, 2)
        for a, m in zip(self.attn, self.mlp):
            x = x + a(x)
            x = x + m(x)
        return self.head(x.mean(1))


def build():
    torch.manual_seed(0)
    model = LeViTStage().eval()
    return model, (torch.randn(3, 3, 16, 16),)
