"""DETR-like cross-attention of object queries over a flattened H×W feature map, scaled by sqrt(d_model).

The query-key product contracts each head's d_h features, so the scores are divided by
sqrt(d_h); dividing by sqrt(d_model) makes them H times flatter. Fix: `/ math.sqrt(C // self.heads)`.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("scale-factor",)


class TinyDETR(nn.Module):
    def __init__(self, dim: int = 16, num_queries: int = 5, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 3, stride=2, padding=1), nn.ReLU())
        self.query_embed = nn.Embedding(num_queries, dim)
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)

    def forward(self, images):
        features = self.backbone(images)
        B, C, H, W = features.shape
        memory = features.flatten(2).permute(0, 2, 1)  # (B, H*W, C)
        queries = self.query_embed.weight.unsqueeze(0).repeat(B, 1, 1)
        heads = lambda t: t.view(B, t.shape[1], self.heads, C // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = heads(self.q_proj(queries)), heads(self.k_proj(memory)), heads(self.v_proj(memory))
        attn = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(C), dim=-1)  # BUG: scale-factor
        return (attn @ v).transpose(1, 2).reshape(B, -1, C)


def build():
    torch.manual_seed(0)
    model = TinyDETR().eval()
    return model, (torch.randn(2, 3, 12, 16),)
