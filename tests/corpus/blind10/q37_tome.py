import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def bipartite_soft_matching(metric, r, class_token=True):
    """ToMe: merge r tokens from set A (even) into their most similar token in set B (odd)."""
    metric = metric / metric.norm(dim=-1, keepdim=True)
    a, b = metric[..., ::2, :], metric[..., 1::2, :]
    scores = a @ b.transpose(-1, -2)
    if class_token:
        scores[..., 0, :] = -math.inf
    node_max, node_idx = scores.max(dim=-1)
    edge_idx = node_max.argsort(dim=-1, descending=True)[..., None]
    unm_idx = edge_idx[..., r:, :]
    src_idx = edge_idx[..., :r, :]
    dst_idx = node_idx[..., None].gather(dim=-2, index=src_idx)

    def merge(x, mode="sum"):
        src, dst = x[..., ::2, :], x[..., 1::2, :]
        n, t1, c = src.shape
        unm = src.gather(dim=-2, index=unm_idx.expand(n, t1 - r, c))
        src = src.gather(dim=-2, index=src_idx.expand(n, r, c))
        dst = dst.scatter_reduce(-2, dst_idx.expand(n, r, c), src, reduce=mode)
        return torch.cat([unm, dst], dim=1)

    return merge


def merge_wavg(merge, x, size):
    x = merge(x * size, mode="sum")
    size = merge(size, mode="sum")
    return x / size, size


class ToMeBlock(nn.Module):
    def __init__(self, d=32, heads=4, r=2):
        super().__init__()
        self.h, self.r = heads, r
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, size):
        B, N, C = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(B, N, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * (C // self.h) ** -0.5
        attn = attn + size.log()[:, None, None, :, 0]  # proportional attention
        attn = attn.softmax(dim=-1)
        x = x + self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))
        merge = bipartite_soft_matching(k.mean(1), self.r)
        x, size = merge_wavg(merge, x, size)
        return x + self.mlp(self.norm2(x)), size


class ToMeViT(nn.Module):
    def __init__(self, img=16, patch=4, d=32, depth=3, n_cls=5):
        super().__init__()
        self.patch = nn.Conv2d(3, d, patch, patch)
        self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
        self.pos = nn.Parameter(torch.randn(1, (img // patch) ** 2 + 1, d) * 0.02)
        self.blocks = nn.ModuleList(ToMeBlock(d) for _ in range(depth))
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_cls)

    def forward(self, images):
        x = self.patch(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.size(0), -1, -1), x], 1) + self.pos
        size = torch.ones_like(x[..., :1])
        for blk in self.blocks:
            x, size = blk(x, size)
        return self.head(self.norm(x[:, 0]))


def build():
    torch.manual_seed(0)
    model = ToMeViT().eval()
    return model, (torch.randn(2, 3, 16, 16),)
