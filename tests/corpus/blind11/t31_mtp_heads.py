"""Decoder with DeepSeek-V3-style multi-token prediction: the trunk predicts t+1, an MTP module predicts t+2."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def causal_mask(T, device=None):
    """positions a query may not look at"""
    return torch.triu(torch.ones(T, T, device=device), diagonal=0).bool()


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.wqkv(x).chunk(3, dim=-1)
        q, k, v = (t.unflatten(-1, (self.h, -1)).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / (D // self.h) ** 0.5
        scores = scores.masked_fill(causal_mask(T, x.device), -1e9)
        return self.wo((scores.softmax(-1) @ v).transpose(1, 2).flatten(2))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.attn = Attention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 3 * dim), nn.SiLU(), nn.Linear(3 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class MTPModule(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.hnorm, self.enorm = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.proj = nn.Linear(2 * dim, dim, bias=False)
        self.block = Block(dim, heads)

    def forward(self, h, next_emb):
        return self.block(self.proj(torch.cat([self.hnorm(h), self.enorm(next_emb)], dim=-1)))


class MTPLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_len=24):
        super().__init__()
        self.embed, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.mtp = MTPModule(dim, heads)
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        T = ids.size(1)
        h = self.embed(ids) + self.pos(torch.arange(T))
        for blk in self.blocks:
            h = blk(h)
        logits = self.head(self.norm(h))
        # depth-1 MTP: position t combines h_t with the embedding of token t+1 to predict token t+2
        h_mtp = self.mtp(h[:, :-1], self.embed(ids[:, 1:]))
        return logits, self.head(self.norm(h_mtp))


def build():
    torch.manual_seed(0)
    return MTPLM().eval(), (torch.randint(0, 50, (2, 12)),)
