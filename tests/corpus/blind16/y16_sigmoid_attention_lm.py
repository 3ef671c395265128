"""Sigmoid attention (Ramapuram et al. 2024) in a decoder-only LM.

Each score is squashed independently with a sigmoid instead of a row softmax; the bias
b = -log(n) keeps the initial attention mass near that of softmax. Future keys are removed by
pushing their logits to -inf, where the sigmoid is exactly zero.
"""
import math

import torch
import torch.nn as nn


class SigmoidAttention(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.register_buffer("causal", torch.ones(max_len, max_len, dtype=torch.bool).tril(), persistent=False)

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).split(self.h * self.dh, dim=-1)
        q = q.reshape(B, T, self.h, self.dh).transpose(1, 2)
        k = k.reshape(B, T, self.h, self.dh).transpose(1, 2)
        v = v.reshape(B, T, self.h, self.dh).transpose(1, 2)
        logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.dh) - math.log(T)
        logits = logits.masked_fill(~self.causal[:T, :T], float("-inf"))
        weights = torch.sigmoid(logits)
        y = torch.matmul(weights, v)
        return self.proj(y.transpose(1, 2).reshape(B, T, -1))


class Block(nn.Module):
    def __init__(self, dim, heads, max_len):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = SigmoidAttention(dim, heads, max_len)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class SigmoidLM(nn.Module):
    def __init__(self, vocab=90, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(max_len, dim).normal_(std=0.02))
        self.blocks = nn.Sequential(*[Block(dim, heads, max_len) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos[: idx.size(1)]
        return self.head(self.ln_f(self.blocks(x)))


def build():
    torch.manual_seed(0)
    model = SigmoidLM().eval()
    return model, (torch.randint(0, 90, (3, 21)),)
