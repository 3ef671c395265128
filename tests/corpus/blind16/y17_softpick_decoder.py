"""Softpick attention (Zuhri et al. 2025): a rectified, sink-free replacement for softmax.

softpick(x)_i = relu(exp(x_i) - 1) / sum_j |exp(x_j) - 1|, computed stably by factoring out
exp(max). Masked entries are excluded from both numerator and denominator.
"""
import math

import torch
import torch.nn as nn


def softpick(x, mask, dim=-1, eps=1e-6):
    """x: logits; mask: bool, True where the entry takes part."""
    x = x.masked_fill(~mask, float("-inf"))
    x_m = x.amax(dim=dim, keepdim=True).clamp(min=-1e4).detach()
    e = torch.exp(x - x_m) - torch.exp(-x_m)
    e = e.masked_fill(~mask, 0.0)
    return torch.relu(e) / (e.abs().sum(dim=dim, keepdim=True) + eps)


class SoftpickAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.wq, self.wk, self.wv = (nn.Linear(dim, dim, bias=False) for _ in range(3))
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        split = lambda t: t.view(B, T, self.h, D // self.h).transpose(1, 2)
        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        logits = q @ k.transpose(-2, -1) / math.sqrt(D // self.h)
        allowed = torch.ones(T, T, dtype=torch.bool, device=x.device).triu().logical_not()
        p = softpick(logits, allowed)
        return self.wo((p @ v).transpose(1, 2).reshape(B, T, D))


class SoftpickDecoder(nn.Module):
    def __init__(self, vocab=72, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList([SoftpickAttention(dim, heads) for _ in range(depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
                                 for _ in range(depth)])
        self.ln = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.out = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, vocab))

    def forward(self, ids):
        x = self.embed(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for ln, attn, ff in zip(self.ln, self.attn, self.ff):
            x = x + attn(ln(x))
            x = x + ff(x)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = SoftpickDecoder().eval()
    return model, (torch.randint(0, 72, (2, 16)),)
