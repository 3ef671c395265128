"""Character-level decoder with Sparse Transformer strided attention (Child et al., 2019).

Half of the heads attend to the previous `stride` positions, the other half to every
`stride`-th position before the query, so two layers cover the whole prefix.
"""
import math

import torch
import torch.nn as nn


class StridedSparseAttention(nn.Module):
    def __init__(self, d_model, n_heads, stride):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.stride = stride
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def pattern(self, T, device):
        i = torch.arange(T, device=device)[:, None]
        j = torch.arange(T, device=device)[None, :]
        local = (j <= i) & (i - j < self.stride)
        strided = (i - j) % self.stride == 0
        half = self.n_heads // 2
        return torch.stack([local] * half + [strided] * (self.n_heads - half))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        att = att.masked_fill(~self.pattern(T, x.device), float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, stride):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = StridedSparseAttention(d_model, n_heads, stride)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class SparseCharLM(nn.Module):
    def __init__(self, vocab=96, d_model=32, n_heads=4, n_layers=2, stride=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, stride) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        T = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = SparseCharLM().eval()
    idx = torch.randint(0, 96, (3, 16))
    return model, (idx,)
