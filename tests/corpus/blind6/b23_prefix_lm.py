"""Prefix language model: bidirectional attention over the prefix, causal after it."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def prefix_lm_mask(seq_len, prefix_len):
    # (B, 1, T, T) bool, True where attention is allowed
    i = torch.arange(seq_len, device=prefix_len.device)[:, None]
    j = torch.arange(seq_len, device=prefix_len.device)[None, :]
    causal = j <= i
    in_prefix = j[None] < prefix_len[:, None, None]
    return (causal[None] | in_prefix).unsqueeze(1)


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)

    def forward(self, x, mask):
        B, T, C = x.shape
        hd = C // self.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, hd).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd)
        scores = scores.masked_fill(~mask, float("-inf"))
        out = torch.matmul(F.softmax(scores, dim=-1), v)
        return self.o(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, n_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask):
        x = x + self.attn(self.norm1(x), mask)
        return x + self.ff(self.norm2(x))


class PrefixLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, prefix_len):
        T = input_ids.shape[1]
        mask = prefix_lm_mask(T, prefix_len)
        x = self.embed(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        for blk in self.blocks:
            x = blk(x, mask)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = PrefixLM().eval()
    input_ids = torch.randint(0, 64, (2, 10))
    prefix_len = torch.tensor([4, 6])
    return model, (input_ids, prefix_len)
