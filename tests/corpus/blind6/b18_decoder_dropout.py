"""Causal decoder with attention and residual dropout."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, dim, n_heads, attn_pdrop=0.1, resid_pdrop=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.attn_pdrop = attn_pdrop
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.resid_drop = nn.Dropout(resid_pdrop)

    def forward(self, x):
        B, T, C = x.shape
        hd = C // self.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, hd).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(hd)
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=x.device))
        att = att.masked_fill(~causal, float("-inf"))
        att = att.softmax(dim=-1)
        att = F.dropout(att, p=self.attn_pdrop)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.resid_drop(self.proj(y))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = CausalAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim), nn.Dropout(0.1))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Decoder(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.drop = nn.Dropout(0.1)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.drop(self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device)))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    idx = torch.randint(0, 64, (2, 8))
    return model, (idx,)
