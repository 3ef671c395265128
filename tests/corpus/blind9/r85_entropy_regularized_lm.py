import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads, max_len=64):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("tril", torch.tril(torch.ones(max_len, max_len, dtype=torch.bool)), persistent=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.heads)
        att = att.masked_fill(~self.tril[:T, :T], float("-inf"))
        att = att.softmax(dim=-1)
        entropy = -(att * att.log()).sum(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(y), entropy.mean()


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        a, ent = self.attn(self.ln1(x))
        x = x + a
        return x + self.mlp(self.ln2(x)), ent


class EntropyRegularizedLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, entropy_weight=0.01):
        super().__init__()
        self.entropy_weight = entropy_weight
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(64, dim)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.size(1)))
        entropies = []
        for blk in self.blocks:
            x, ent = blk(x)
            entropies.append(ent)
        logits = self.head(self.ln_f(x))
        entropy_bonus = -self.entropy_weight * torch.stack(entropies).mean()
        return logits, entropy_bonus


def build():
    torch.manual_seed(0)
    model = EntropyRegularizedLM().eval()
    idx = torch.randint(0, 64, (2, 10))
    return model, (idx,)
