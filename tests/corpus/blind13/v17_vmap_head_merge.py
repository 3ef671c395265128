"""A small causal LM whose attention is written for one head and vectorized with torch.func.vmap.

`single_head` is the textbook formula on (B, T, d_head) tensors; vmap maps it over the head
axis of the (B, H, T, d_head) projections.
"""
import math

import torch
import torch.nn as nn
from torch.func import vmap


def single_head(q, k, v):
    T = q.size(-2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    causal = torch.ones(T, T, dtype=torch.bool, device=q.device).tril()
    scores = scores.masked_fill(~causal, float("-inf"))
    return scores.softmax(dim=-1) @ v


class VmapAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)
        q, k, v = (t.view(B, T, self.h, D // self.h).transpose(1, 2) for t in (q, k, v))
        out = vmap(single_head, in_dims=1, out_dims=1)(q, k, v)       # (B, H, T, d_head)
        out = out.reshape(B, T, D)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = VmapAttention(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class VmapLM(nn.Module):
    def __init__(self, vocab=50, d=32, n_layers=2, max_len=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        T = idx.size(1)
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = VmapLM().eval()
    return model, (torch.randint(0, 50, (3, 12)),)
