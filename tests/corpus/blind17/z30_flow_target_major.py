"""Global-matching flow head with a target-major correlation volume.

The correlation is stored as (B, HW_1, HW_0): rows index pixels of frame 1 (the candidates),
columns pixels of frame 0 (the queries). The matching distribution of a frame-0 pixel is
therefore a column, and the softmax runs over dim=1. A self-attention "flow propagation" step
then smooths the flow with feature similarity of frame 0.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def pixel_grid(h, w, device=None):
    ys, xs = torch.meshgrid(torch.arange(h, device=device, dtype=torch.float32),
                            torch.arange(w, device=device, dtype=torch.float32), indexing="ij")
    return torch.stack([xs, ys], -1).view(-1, 2)  # (HW, 2)


class TargetMajorMatching(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.proj = nn.Linear(c, c)
        self.prop_q = nn.Linear(c, c)
        self.prop_k = nn.Linear(c, c)

    def forward(self, feat0, feat1):
        b, c, h, w = feat0.shape
        x0 = feat0.flatten(2).transpose(1, 2)  # (B, HW0, C)
        x1 = feat1.flatten(2).transpose(1, 2)  # (B, HW1, C)
        corr = torch.einsum("bjc,bic->bji", x1, x0) / math.sqrt(c)  # (B, HW1, HW0)
        match = corr.softmax(dim=1)
        grid = pixel_grid(h, w, feat0.device)
        target = torch.einsum("bji,jd->bid", match, grid)  # expected position in frame 1
        flow = target - grid
        # flow propagation with self-attention over frame-0 features
        q, k = self.prop_q(self.proj(x0)), self.prop_k(self.proj(x0))
        a = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(c), dim=-1)
        flow = a @ flow
        return flow.transpose(1, 2).reshape(b, 2, h, w)


class FlowNet(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, c, 4, 4), nn.GELU(), nn.Conv2d(c, c, 3, 1, 1))
        self.head = TargetMajorMatching(c)

    def forward(self, img0, img1):
        return self.head(self.encoder(img0), self.encoder(img1))


def build():
    torch.manual_seed(0)
    model = FlowNet().eval()
    img0 = torch.randn(2, 3, 24, 32)
    img1 = torch.roll(img0, shifts=(0, 4), dims=(2, 3))
    return model, (img0, img1)
