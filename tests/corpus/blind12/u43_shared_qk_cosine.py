"""Point-cloud segmentation with shared-QK cosine self-attention.

Queries and keys share one projection and are L2-normalised, so the score of two points is
their cosine similarity divided by a temperature (0.01, as in contrastive learning). The
softmax is written out explicitly so the module exports to our inference runtime.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineSelfAttention(nn.Module):
    def __init__(self, dim, temperature=0.01):
        super().__init__()
        self.temperature = temperature
        self.qk = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        z = F.normalize(self.qk(x), dim=-1)                    # (B, N, D), shared for q and k
        scores = z @ z.transpose(1, 2) / self.temperature       # cosine / tau
        weights = torch.exp(scores)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return self.proj(weights @ self.v(x))


class PointSegmenter(nn.Module):
    def __init__(self, in_dim=3, dim=32, n_parts=5):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.attn1 = CosineSelfAttention(dim)
        self.norm1 = nn.LayerNorm(dim)
        self.attn2 = CosineSelfAttention(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.head = nn.Linear(2 * dim, n_parts)

    def forward(self, points):
        x = self.embed(points)
        x = self.norm1(x + self.attn1(x))
        x = self.norm2(x + self.attn2(x))
        g = x.max(dim=1, keepdim=True).values.expand_as(x)
        return self.head(torch.cat([x, g], dim=-1))


def build():
    torch.manual_seed(43)
    model = PointSegmenter().eval()
    return model, (torch.randn(2, 16, 3),)
