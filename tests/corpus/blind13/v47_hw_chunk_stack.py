"""Homework 4 (variant): causal multi-head attention with heads as a Python-level split.

The projection is cut into heads with torch.chunk along the feature axis and stacked into a
new head axis; the per-head outputs are unbound and concatenated back along features. The
causal mask is applied with torch.where.
"""
import math

import torch
import torch.nn as nn


class ChunkHeadsAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        T = x.size(1)
        q = torch.stack(self.q(x).chunk(self.heads, dim=-1), dim=1)         # (B, H, T, d_h)
        k = torch.stack(self.k(x).chunk(self.heads, dim=-1), dim=1)
        v = torch.stack(self.v(x).chunk(self.heads, dim=-1), dim=1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        allowed = torch.tril(torch.ones(T, T, dtype=torch.bool, device=x.device))
        scores = torch.where(allowed, scores, float("-inf"))
        ctx = torch.softmax(scores, dim=-1) @ v                               # (B, H, T, d_h)
        return self.out(torch.cat(ctx.unbind(dim=1), dim=-1))


class TinyDecoder(nn.Module):
    def __init__(self, vocab=40, d=32, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(16, d)
        self.attn = nn.ModuleList(ChunkHeadsAttention(d) for _ in range(n_layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, d)) for _ in range(n_layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for attn, mlp, ln1, ln2 in zip(self.attn, self.mlp, self.ln1, self.ln2):
            x = x + attn(ln1(x))
            x = x + mlp(ln2(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = TinyDecoder().eval()
    return model, (torch.randint(0, 40, (2, 11)),)
