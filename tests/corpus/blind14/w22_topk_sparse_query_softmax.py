"""Decoder with top-k sparse attention: each query keeps only its k highest-scoring visible keys."""
import math

import torch
import torch.nn as nn


class TopKAttention(nn.Module):
    def __init__(self, d_model, n_heads, topk):
        super().__init__()
        self.n_heads, self.d_head, self.topk = n_heads, d_model // n_heads, topk
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_heads, self.d_head).transpose(1, 2).reshape(B * self.n_heads, T, self.d_head) for t in (q, k, v))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.d_head)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(future, torch.finfo(scores.dtype).min)
        top_vals, top_idx = scores.topk(min(self.topk, T), dim=-1)
        sparse = torch.full_like(scores, torch.finfo(scores.dtype).min).scatter(-1, top_idx, top_vals)
        attn = torch.softmax(sparse, dim=1)
        y = torch.bmm(attn, v).view(B, self.n_heads, T, self.d_head)
        return self.c_proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, d_model, n_heads, topk):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = TopKAttention(d_model, n_heads, topk)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class SparseGPT(nn.Module):
    def __init__(self, vocab=64, d_model=32, n_heads=4, n_layers=2, topk=4, block_size=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(block_size, d_model)
        self.h = nn.ModuleList(Block(d_model, n_heads, topk) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = SparseGPT().eval()
    idx = torch.randint(0, 64, (2, 16))
    return model, (idx,)
