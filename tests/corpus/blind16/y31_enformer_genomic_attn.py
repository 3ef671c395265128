"""Enformer-lite (Avsec et al. 2021) for predicting genomic tracks from one-hot DNA.

A conv tower with attention pooling shortens the sequence; transformer layers use relative
positional features built from exponentially spaced distance basis functions, projected to a
per-head bias on the attention logits.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AttentionPool(nn.Module):
    """Softmax-weighted pooling over non-overlapping windows of `pool_size` positions."""

    def __init__(self, dim, pool_size=2):
        super().__init__()
        self.pool_size = pool_size
        self.to_attn_logits = nn.Conv2d(dim, dim, 1, bias=False)
        nn.init.dirac_(self.to_attn_logits.weight)
        with torch.no_grad():
            self.to_attn_logits.weight.mul_(2)

    def forward(self, x):                                       # (B, C, L)
        b, d, n = x.shape
        x = x.view(b, d, n // self.pool_size, self.pool_size)
        logits = self.to_attn_logits(x)
        attn = logits.softmax(dim=-1)
        return (x * attn).sum(dim=-1)


def exponential_basis(seq_len, num_basis, device=None):
    dist = torch.arange(-seq_len + 1, seq_len, device=device).float()
    half_life = torch.linspace(math.log2(3.0), math.log2(seq_len), num_basis, device=device).exp2()
    feats = torch.exp(-math.log(2.0) / half_life[None, :] * dist.abs()[:, None])
    return torch.cat([feats, torch.sign(dist)[:, None] * feats], dim=-1)   # (2L-1, 2*num_basis)


class RelPosAttention(nn.Module):
    def __init__(self, dim, heads, num_basis=4):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.num_basis = num_basis
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.rel_bias = nn.Linear(2 * num_basis, heads, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q = self.to_q(x).view(b, self.heads, n, self.dh)
        k = self.to_k(x).view(b, n, self.heads, self.dh).transpose(1, 2)
        v = self.to_v(x).view(b, n, self.heads, self.dh).transpose(1, 2)
        feats = exponential_basis(n, self.num_basis, x.device)
        bias_table = self.rel_bias(feats)                           # (2n-1, H)
        idx = torch.arange(n, device=x.device)
        rel = idx[None, :] - idx[:, None] + n - 1
        bias = bias_table[rel].permute(2, 0, 1)                     # (H, n, n)
        logits = q @ k.transpose(-1, -2) * self.dh ** -0.5 + bias
        out = logits.softmax(dim=-1) @ v
        return self.to_out(out.transpose(1, 2).reshape(b, n, -1))


class EnformerLite(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, num_tracks=6):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(4, dim, 7, padding=3), nn.GELU())
        self.pool1 = AttentionPool(dim)
        self.conv = nn.Sequential(nn.BatchNorm1d(dim), nn.GELU(), nn.Conv1d(dim, dim, 5, padding=2))
        self.pool2 = AttentionPool(dim)
        self.attn = nn.ModuleList([RelPosAttention(dim, heads) for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
                                  for _ in range(depth)])
        self.head = nn.Sequential(nn.Linear(dim, num_tracks), nn.Softplus())

    def forward(self, dna):                                    # (B, L, 4) one-hot
        x = self.pool1(self.stem(dna.transpose(1, 2)))
        x = self.pool2(x + self.conv(x)).transpose(1, 2)        # (B, L/4, C)
        for i, (attn, ffn) in enumerate(zip(self.attn, self.ffn)):
            x = x + attn(self.norms[2 * i](x))
            x = x + ffn(self.norms[2 * i + 1](x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = EnformerLite().eval()
    dna = F.one_hot(torch.randint(0, 4, (2, 64)), 4).float()
    return model, (dna,)
