"""Sentence encoder with scaled cosine attention (learned per-head temperature).

Queries and keys are L2-normalised, so their dot product is a cosine in [-1, 1]; a learned
log-temperature per head (clamped at log(100), as in Swin V2) sets the sharpness.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones(heads, 1, 1)))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        sim = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        sim = sim * torch.clamp(self.logit_scale, max=math.log(100.0)).exp()
        attn = sim.softmax(dim=-1)
        attn = attn * attention_mask[:, None, None, :].to(attn.dtype)
        out = (attn @ v).transpose(1, 2).reshape(B, T, D)
        return self.proj(out)


class CosineEncoder(nn.Module):
    def __init__(self, vocab=500, dim=48, heads=4, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(64, dim)
        self.attn = nn.ModuleList([CosineAttention(dim, heads) for _ in range(depth)])
        self.post_norm = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim)) for _ in range(depth)])

    def forward(self, input_ids, attention_mask):
        x = self.emb(input_ids) + self.pos(torch.arange(input_ids.size(1), device=input_ids.device))
        for i, attn in enumerate(self.attn):
            x = x + self.post_norm[2 * i](attn(x, attention_mask))  # res-post-norm
            x = x + self.post_norm[2 * i + 1](self.mlp[i](x))
        m = attention_mask.unsqueeze(-1).float()
        return F.normalize((x * m).sum(1) / m.sum(1), dim=-1)


def build():
    torch.manual_seed(0)
    model = CosineEncoder().eval()
    ids = torch.randint(1, 500, (3, 15))
    mask = torch.ones(3, 15, dtype=torch.long)
    mask[0, 9:] = 0
    mask[2, 5:] = 0
    return model, (ids, mask)
