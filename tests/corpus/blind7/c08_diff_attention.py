import math

import torch
import torch.nn as nn


def lambda_init_fn(depth):
    return 0.8 - 0.6 * math.exp(-0.3 * depth)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5, elementwise_affine=True):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim)) if elementwise_affine else None

    def forward(self, x):
        out = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return out * self.weight if self.weight is not None else out


class MultiheadDiffAttn(nn.Module):
    def __init__(self, embed_dim=32, num_heads=2, depth=1):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads // 2
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.lambda_init = lambda_init_fn(depth)
        self.lambda_q1 = nn.Parameter(torch.randn(self.head_dim) * 0.1)
        self.lambda_k1 = nn.Parameter(torch.randn(self.head_dim) * 0.1)
        self.lambda_q2 = nn.Parameter(torch.randn(self.head_dim) * 0.1)
        self.lambda_k2 = nn.Parameter(torch.randn(self.head_dim) * 0.1)
        self.subln = RMSNorm(2 * self.head_dim)

    def forward(self, x):
        B, T, E = x.shape
        q = self.q_proj(x).view(B, T, 2 * self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, 2 * self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_heads, 2 * self.head_dim).transpose(1, 2)
        scores = (q * self.scaling) @ k.transpose(-1, -2)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), 1)
        scores = scores.masked_fill(future, float("-inf"))
        attn = torch.softmax(scores.float(), dim=-1).type_as(scores)
        lambda_1 = torch.exp(torch.sum(self.lambda_q1 * self.lambda_k1).float()).type_as(q)
        lambda_2 = torch.exp(torch.sum(self.lambda_q2 * self.lambda_k2).float()).type_as(q)
        lambda_full = lambda_1 - lambda_2 + self.lambda_init
        attn = attn.view(B, self.num_heads, 2, T, T)
        attn = attn[:, :, 0] - lambda_full * attn[:, :, 1]
        out = attn @ v
        out = self.subln(out) * (1 - self.lambda_init)
        out = out.transpose(1, 2).reshape(B, T, self.num_heads * 2 * self.head_dim)
        return self.out_proj(out)


class DiffDecoderLayer(nn.Module):
    def __init__(self, dim=32, heads=2):
        super().__init__()
        self.norm1 = RMSNorm(dim)
        self.attn = MultiheadDiffAttn(dim, heads)
        self.norm2 = RMSNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ffn(self.norm2(x))


def build():
    torch.manual_seed(0)
    model = DiffDecoderLayer().eval()
    x = torch.randn(2, 9, 32)
    return model, (x,)
