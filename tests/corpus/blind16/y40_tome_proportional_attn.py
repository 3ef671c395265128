"""Token Merging (ToMe, Bolya et al. 2023) applied at inference to a small audio-spectrogram
transformer classifier.

After the attention of every block, r tokens are merged by bipartite soft matching (alternate
tokens form the two sets, the class token is protected). Merged tokens carry their size s, and
attention uses proportional attention: log s is added to the logits of each key so a merged
token counts as many as it represents.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def bipartite_soft_matching(metric, r):
    with torch.no_grad():
        metric = metric / metric.norm(dim=-1, keepdim=True)
        a, b = metric[..., ::2, :], metric[..., 1::2, :]
        scores = a @ b.transpose(-1, -2)
        scores[..., 0, :] = -math.inf                           # never merge the class token
        node_max, node_idx = scores.max(dim=-1)
        edge_idx = node_max.argsort(dim=-1, descending=True)[..., None]
        unm_idx, src_idx = edge_idx[..., r:, :], edge_idx[..., :r, :]
        dst_idx = node_idx[..., None].gather(dim=-2, index=src_idx)
        unm_idx = unm_idx.sort(dim=1)[0]

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


class ToMeAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, size):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn + size.log()[:, None, None, :, 0]
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x), k.mean(1)


class ToMeBlock(nn.Module):
    def __init__(self, dim, heads, r):
        super().__init__()
        self.r = r
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = ToMeAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, size):
        a, metric = self.attn(self.norm1(x), size)
        x = x + a
        merge = bipartite_soft_matching(metric, self.r)
        x, size = merge_wavg(merge, x, size)
        return x + self.mlp(self.norm2(x)), size


class SpectrogramToMe(nn.Module):
    def __init__(self, n_mels=16, frames=32, patch=4, dim=32, heads=4, depth=3, r=4, classes=10):
        super().__init__()
        self.patch_embed = nn.Conv2d(1, dim, patch, patch)
        n = (n_mels // patch) * (frames // patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos_embed = nn.Parameter(torch.randn(1, n + 1, dim) * 0.02)
        self.blocks = nn.ModuleList([ToMeBlock(dim, heads, r) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, spec):
        x = self.patch_embed(spec).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1) + self.pos_embed
        size = torch.ones_like(x[..., 0, None])
        for blk in self.blocks:
            x, size = blk(x, size)
        return self.head(self.norm(x[:, 0]))


def build():
    torch.manual_seed(0)
    model = SpectrogramToMe().eval()
    return model, (torch.randn(3, 1, 16, 32),)
