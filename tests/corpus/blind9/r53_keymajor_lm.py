import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class KeyMajorAttention(nn.Module):
    def __init__(self, dim, heads, max_len=64):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("visible", torch.ones(max_len, max_len, dtype=torch.bool).triu(), persistent=False)

    def forward(self, x):
        B, T, C = x.shape
        q = self.to_q(x).view(B, T, self.heads, -1).transpose(1, 2)
        k = self.to_k(x).view(B, T, self.heads, -1).transpose(1, 2)
        v = self.to_v(x).view(B, T, self.heads, -1).transpose(1, 2)
        scores_kq = torch.einsum("bhkd,bhqd->bhkq", k, q) * self.scale
        scores_kq = scores_kq.masked_fill(~self.visible[:T, :T], float("-inf"))
        weights_kq = scores_kq.softmax(dim=-2)
        out = torch.einsum("bhkq,bhkd->bhqd", weights_kq, v)
        return self.proj(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = KeyMajorAttention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class KeyMajorLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.size(1)))
        return self.head(self.ln_f(self.blocks(x)))


def build():
    torch.manual_seed(0)
    model = KeyMajorLM().eval()
    idx = torch.randint(0, 64, (2, 11))
    return model, (idx,)
