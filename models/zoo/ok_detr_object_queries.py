"""Correct: DETR-like decoding: learned object queries cross-attend to a flattened H×W feature map.

Trap for a checker that only knows text: neither sequence is an input. The keys are the
H·W positions of a CNN feature map, the queries are N learned embeddings, and N ≠ H·W.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class TinyDETR(nn.Module):
    def __init__(self, dim: int = 16, num_queries: int = 5, heads: int = 2, classes: int = 4):
        super().__init__()
        self.heads = heads
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 3, stride=2, padding=1), nn.ReLU())
        self.query_embed = nn.Embedding(num_queries, dim)
        self.row_embed = nn.Parameter(torch.rand(8, dim // 2))
        self.col_embed = nn.Parameter(torch.rand(8, dim // 2))
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.class_embed = nn.Linear(dim, classes + 1)

    def forward(self, images):
        features = self.backbone(images)  # (B, dim, h, w)
        B, C, H, W = features.shape
        pos = torch.cat([self.col_embed[:W].unsqueeze(0).repeat(H, 1, 1),
                         self.row_embed[:H].unsqueeze(1).repeat(1, W, 1)], dim=-1).flatten(0, 1)  # (H*W, C)
        memory = features.flatten(2).permute(0, 2, 1) + pos  # (B, H*W, C)
        queries = self.query_embed.weight.unsqueeze(0).repeat(B, 1, 1)  # (B, N, C)
        heads = lambda t: t.view(B, t.shape[1], self.heads, C // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = heads(self.q_proj(queries)), heads(self.k_proj(memory)), heads(self.v_proj(memory))
        attn = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(C // self.heads), dim=-1)
        hs = (attn @ v).transpose(1, 2).reshape(B, -1, C)
        return self.class_embed(hs)


def build():
    torch.manual_seed(0)
    model = TinyDETR().eval()
    return model, (torch.randn(2, 3, 12, 16),)
