"""Deformable attention: each query predicts its sampling points' weights with a linear layer and a softmax over the points: correct.

No query meets a key here: the weights over the `P` points come from the query's own
projection (`view(B, Lq, H, P).softmax(-1)`), a piece of its feature axis by design, and
weigh values sampled around a reference point.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class DeformableSampler(nn.Module):
    def __init__(self, dim: int = 16, heads: int = 2, points: int = 4):
        super().__init__()
        self.h, self.p, self.dh = heads, points, dim // heads
        self.offsets = nn.Linear(dim, heads * points * 2)
        self.weights = nn.Linear(dim, heads * points)
        self.value = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, query, reference, features):            # (B, Lq, C), (B, Lq, 2), (B, H*W, C)
        B, Lq, _ = query.shape
        H = W = int(features.shape[1] ** 0.5)
        v = self.value(features).view(B, H * W, self.h, self.dh).permute(0, 2, 3, 1).reshape(B * self.h, self.dh, H, W)
        offsets = self.offsets(query).view(B, Lq, self.h, self.p, 2)
        weights = self.weights(query).view(B, Lq, self.h, self.p).softmax(-1)
        grid = 2 * (reference[:, :, None, None, :] + offsets / W) - 1
        grid = grid.permute(0, 2, 1, 3, 4).reshape(B * self.h, Lq, self.p, 2)
        sampled = F.grid_sample(v, grid, align_corners=False)                          # (B*H, dh, Lq, P)
        w = weights.permute(0, 2, 1, 3).reshape(B * self.h, 1, Lq, self.p)
        return self.out((sampled * w).sum(-1).view(B, self.h * self.dh, Lq).transpose(1, 2))


def build():
    torch.manual_seed(0)
    return DeformableSampler().eval(), (torch.randn(2, 5, 16), torch.rand(2, 5, 2), torch.randn(2, 16, 16))
