"""Move prediction for 9x9 Go with a small transformer over intersections.

Input planes per intersection: own stones, opponent stones, empty, and the last few moves.
A pass token is appended to the 81 intersections; the policy head scores the 82 tokens.
"""
import math

import torch
import torch.nn as nn


class GoSelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.dim, self.n_heads = dim, n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, _ = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.dim))
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, self.dim)
        return self.proj(x)


class GoNet(nn.Module):
    def __init__(self, planes=8, dim=64, n_heads=8, depth=2):
        super().__init__()
        self.stem = nn.Linear(planes, dim)
        self.pass_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.randn(1, 82, dim) * 0.02)
        self.layers = nn.ModuleList()
        for _ in range(depth):
            self.layers.append(nn.ModuleList([nn.LayerNorm(dim), GoSelfAttention(dim, n_heads),
                                              nn.LayerNorm(dim), nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))]))
        self.norm = nn.LayerNorm(dim)
        self.policy = nn.Linear(dim, 1)

    def forward(self, planes):  # (B, 81, planes)
        x = self.stem(planes)
        x = torch.cat([x, self.pass_token.expand(x.size(0), -1, -1)], dim=1) + self.pos
        for n1, attn, n2, mlp in self.layers:
            x = x + attn(n1(x))
            x = x + mlp(n2(x))
        return self.policy(self.norm(x)).squeeze(-1).log_softmax(-1)


def build():
    torch.manual_seed(0)
    model = GoNet().eval()
    planes = (torch.rand(2, 81, 8) < 0.3).float() * 3.0
    return model, (planes,)
