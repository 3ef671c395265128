"""Decoder-only language model with sliding-window self-attention."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sliding_window_mask(seq_len, window, device=None):
    i = torch.arange(seq_len, device=device)[:, None]
    j = torch.arange(seq_len, device=device)[None, :]
    return (i - j) < window


class WindowAttention(nn.Module):
    def __init__(self, dim, n_heads, window):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.window = window
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        qkv = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        allowed = sliding_window_mask(T, self.window, device=x.device)
        scores = scores.masked_fill(~allowed, float("-inf"))
        probs = F.softmax(scores, dim=-1)
        out = (probs @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, n_heads, window):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, n_heads, window)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class SlidingWindowLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, window=4, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads, window) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        T = tokens.shape[1]
        x = self.tok(tokens) + self.pos(torch.arange(T, device=tokens.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = SlidingWindowLM().eval()
    tokens = torch.randint(0, 64, (2, 11))
    return model, (tokens,)
