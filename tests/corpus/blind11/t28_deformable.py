"""Deformable DETR-style multi-scale deformable attention (one level), sampling values with grid_sample."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MSDeformAttn(nn.Module):
    def __init__(self, dim=32, heads=4, points=4):
        super().__init__()
        self.h, self.p, self.dh = heads, points, dim // heads
        self.sampling_offsets = nn.Linear(dim, heads * points * 2)
        self.attention_weights = nn.Linear(dim, heads * points)
        self.value_proj = nn.Linear(dim, dim)
        self.output_proj = nn.Linear(dim, dim)

    def forward(self, query, reference_points, value, spatial_shape):
        """query: (B, Lq, C); reference_points: (B, Lq, 2) in [0, 1] as (x, y); value: (B, H*W, C)"""
        B, Lq, _ = query.shape
        H, W = spatial_shape
        v = self.value_proj(value).view(B, H * W, self.h, self.dh)
        offsets = self.sampling_offsets(query).view(B, Lq, self.h, self.p, 2)
        weights = self.attention_weights(query).view(B, Lq, self.h, self.p).softmax(-1)
        normalizer = torch.tensor([W, H], dtype=query.dtype)
        loc = reference_points[:, :, None, None, :] + offsets / normalizer
        grid = 2 * loc - 1  # grid_sample wants [-1, 1]
        v = v.permute(0, 2, 3, 1).reshape(B * self.h, self.dh, H, W)
        grid = grid.permute(0, 2, 1, 3, 4).reshape(B * self.h, Lq, self.p, 2)
        sampled = F.grid_sample(v, grid, mode="bilinear", padding_mode="zeros", align_corners=False)  # (B*h, dh, Lq, P)
        w = weights.permute(0, 2, 1, 3).reshape(B * self.h, 1, Lq, self.p)
        out = (sampled * w).sum(-1).view(B, self.h * self.dh, Lq).transpose(1, 2)
        return self.output_proj(out)


class DeformableDecoderLayer(nn.Module):
    def __init__(self, dim=32, heads=4, num_queries=5):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, dim)
        self.ref_head = nn.Linear(dim, 2)
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.cross_attn = MSDeformAttn(dim, heads)
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.box_head = nn.Linear(dim, 4)

    def forward(self, feature_map):
        B, C, H, W = feature_map.shape
        memory = feature_map.flatten(2).transpose(1, 2)
        tgt = self.query_embed.weight[None].expand(B, -1, -1)
        ref = self.ref_head(tgt).sigmoid()
        tgt = self.norm1(tgt + self.self_attn(tgt, tgt, tgt, need_weights=False)[0])
        tgt = self.norm2(tgt + self.cross_attn(tgt, ref, memory, (H, W)))
        return self.box_head(tgt).sigmoid()


def build():
    torch.manual_seed(0)
    return DeformableDecoderLayer().eval(), (torch.randn(2, 32, 6, 5),)
