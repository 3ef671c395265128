"""Point-cloud transformer layer with k-nearest-neighbour attention for part segmentation.
Clouds in a batch have different point counts and are padded."""
import torch
import torch.nn as nn


class KNNAttention(nn.Module):
    def __init__(self, dim, k=4):
        super().__init__()
        self.k = k
        self.qkv = nn.Linear(dim, 3 * dim)
        self.pos_enc = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.proj = nn.Linear(dim, dim)
        self.scale = dim ** -0.5

    def forward(self, feats, xyz, valid):
        dist = torch.cdist(xyz, xyz)
        dist = dist.masked_fill(~valid[:, None, :], float("inf"))
        knn = dist.topk(self.k, dim=-1, largest=False).indices  # (B, N, k)
        adj = torch.zeros_like(dist).scatter_(-1, knn, 1.0)

        q, k, v = self.qkv(feats + self.pos_enc(xyz)).chunk(3, dim=-1)
        scores = torch.bmm(q, k.transpose(1, 2)) * self.scale
        attn = torch.softmax(scores, dim=-1)
        attn = attn * adj
        return self.proj(torch.bmm(attn, v))


class PointSegNet(nn.Module):
    def __init__(self, in_dim=6, dim=32, n_parts=5, k=4):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.attn1 = KNNAttention(dim, k)
        self.attn2 = KNNAttention(dim, k)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.seg_head = nn.Linear(dim, n_parts)

    def forward(self, xyz, colors, valid):
        h = self.embed(torch.cat([xyz, colors], dim=-1))
        h = h + self.attn1(self.norm1(h), xyz, valid)
        h = h + self.attn2(self.norm2(h), xyz, valid)
        return self.seg_head(h)


def build():
    torch.manual_seed(0)
    model = PointSegNet().eval()
    n_points = torch.tensor([16, 11, 13])
    valid = torch.arange(16)[None, :] < n_points[:, None]
    xyz = torch.rand(3, 16, 3)
    colors = torch.rand(3, 16, 3)
    return model, (xyz, colors, valid)
