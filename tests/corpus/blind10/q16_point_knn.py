import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def knn(xyz, k, valid):
    # xyz: [B, N, 3], valid: [B, N] bool -> idx [B, N, k]
    d = torch.cdist(xyz, xyz)
    d = d.masked_fill(~valid[:, None, :], float("inf"))
    return d.topk(k, dim=-1, largest=False).indices


def gather_neighbors(x, idx):
    B, N, K = idx.shape
    flat = idx.reshape(B, N * K, 1).expand(-1, -1, x.size(-1))
    return torch.gather(x, 1, flat).reshape(B, N, K, x.size(-1))


class LocalAttention(nn.Module):
    def __init__(self, dim=32, heads=4, k=4):
        super().__init__()
        self.k, self.heads = k, heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.pos = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, feats, xyz, valid):
        B, N, C = feats.shape
        h, dh = self.heads, C // self.heads
        idx = knn(xyz, self.k, valid)
        q, k, v = self.qkv(self.norm(feats)).chunk(3, -1)
        rel = self.pos(xyz[:, :, None, :] - gather_neighbors(xyz, idx))  # [B, N, K, C]
        k = gather_neighbors(k, idx) + rel
        v = gather_neighbors(v, idx) + rel
        q = q.view(B, N, 1, h, dh)
        k = k.view(B, N, self.k, h, dh)
        v = v.view(B, N, self.k, h, dh)
        logits = (q * k).sum(-1) / math.sqrt(dh)  # [B, N, K, h]
        attn = logits.softmax(dim=2)
        out = (attn.unsqueeze(-1) * v).sum(2).reshape(B, N, C)
        return feats + self.proj(out)


class PointEncoder(nn.Module):
    def __init__(self, in_dim=4, dim=32, depth=2, n_cls=5):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.blocks = nn.ModuleList(LocalAttention(dim) for _ in range(depth))
        self.head = nn.Linear(dim, n_cls)

    def forward(self, xyz, feats, valid):
        x = self.embed(feats)
        for blk in self.blocks:
            x = blk(x, xyz, valid)
        x = x.masked_fill(~valid[..., None], float("-inf")).amax(1)  # max-pool over real points
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = PointEncoder().eval()
    B, N = 2, 12
    xyz = torch.rand(B, N, 3)
    feats = torch.randn(B, N, 4)
    valid = torch.ones(B, N, dtype=torch.bool)
    valid[1, 9:] = False  # padded points of the smaller cloud
    xyz[1, 9:] = 0.0
    feats[1, 9:] = 0.0
    return model, (xyz, feats, valid)
