import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvAttention(nn.Module):
    def __init__(self, dim, heads, block_size, kernel_size=3):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.dwconv = nn.Conv1d(3 * dim, 3 * dim, kernel_size, padding=kernel_size // 2, groups=3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("mask", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.shape
        qkv = self.qkv(x)
        qkv = self.dwconv(qkv.transpose(1, 2)).transpose(1, 2)
        q, k, v = qkv.split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, dim, heads, block_size):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = ConvAttention(dim, heads, block_size)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class ConvMixerLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, block_size=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(block_size, dim)
        self.blocks = nn.ModuleList([Block(dim, heads, block_size) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = ConvMixerLM().eval()
    idx = torch.randint(0, 64, (2, 10))
    return model, (idx,)
