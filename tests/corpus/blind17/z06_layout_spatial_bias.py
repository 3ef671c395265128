"""Spatial-aware self-attention for document understanding (LayoutLMv2-style relative biases).

Besides the 1-D relative position bias, every head gets learned biases for the bucketed
horizontal and vertical distance between the top-left corners of two tokens' boxes.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def relative_bucket(rel, num_buckets=16, max_distance=128):
    """Bidirectional log-spaced buckets (half for negative, half for positive offsets)."""
    num_buckets //= 2
    ret = (rel > 0).long() * num_buckets
    n = rel.abs()
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_large = max_exact + (
        torch.log(n.float().clamp(min=1) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val_large = val_large.clamp(max=num_buckets - 1)
    return ret + torch.where(is_small, n, val_large)


class SpatialSelfAttention(nn.Module):
    def __init__(self, dim, heads, buckets=16):
        super().__init__()
        self.heads, self.buckets = heads, buckets
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.rel_1d = nn.Embedding(buckets, heads)
        self.rel_x = nn.Embedding(buckets, heads)
        self.rel_y = nn.Embedding(buckets, heads)

    def forward(self, x, bbox, key_padding):
        B, T, D = x.shape
        h = self.heads
        q, k, v = self.qkv(x).view(B, T, 3, h, D // h).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        pos = torch.arange(T, device=x.device)
        b1 = self.rel_1d(relative_bucket(pos[None, :] - pos[:, None], self.buckets, 32))  # (T, T, h)
        rx = bbox[:, None, :, 0] - bbox[:, :, None, 0]
        ry = bbox[:, None, :, 1] - bbox[:, :, None, 1]
        b2 = self.rel_x(relative_bucket(rx, self.buckets)) + self.rel_y(relative_bucket(ry, self.buckets))
        bias = b1.permute(2, 0, 1).unsqueeze(0) + b2.permute(0, 3, 1, 2)  # (B, h, T, T)
        bias = bias.masked_fill(key_padding[:, None, None, :], torch.finfo(x.dtype).min)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.proj(out.transpose(1, 2).reshape(B, T, D))


class DocEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4, depth=2):
        super().__init__()
        self.word = nn.Embedding(vocab, dim)
        self.box = nn.Linear(4, dim)
        self.attn = nn.ModuleList([SpatialSelfAttention(dim, heads) for _ in range(depth)])
        self.ln = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.head = nn.Linear(dim, 5)

    def forward(self, input_ids, bbox, attention_mask):
        pad = attention_mask == 0
        x = self.word(input_ids) + self.box(bbox.float() / 1000.0)
        for i, attn in enumerate(self.attn):
            x = self.ln[2 * i](x + attn(x, bbox, pad))
            x = self.ln[2 * i + 1](x + self.ff[i](x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = DocEncoder().eval()
    ids = torch.randint(1, 100, (3, 12))
    x0, y0 = torch.randint(0, 900, (3, 12)), torch.randint(0, 950, (3, 12))
    bbox = torch.stack([x0, y0, x0 + 50, y0 + 20], -1)
    mask = torch.ones(3, 12, dtype=torch.long)
    mask[0, 9:] = 0
    mask[2, 4:] = 0
    return model, (ids, bbox, mask)
