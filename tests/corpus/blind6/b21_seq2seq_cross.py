"""Encoder-decoder transformer with padded source and target batches."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, context, key_mask, causal=False):
        # key_mask: (B, S) with 1 for real context positions
        B, T, C = x.shape
        S = context.shape[1]
        q = self.q(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(context).view(B, S, 2, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        allowed = key_mask[:, None, None, :].bool()
        if causal:
            allowed = allowed & torch.ones(T, S, dtype=torch.bool, device=x.device).tril()
        scores = scores.masked_fill(~allowed, torch.finfo(scores.dtype).min)
        probs = F.softmax(scores, dim=-1)
        return self.o((probs @ v).transpose(1, 2).reshape(B, T, C))


class EncoderLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.attn = Attention(dim, n_heads)
        self.norm1 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x, mask):
        h = self.norm1(x)
        x = x + self.attn(h, h, mask)
        return x + self.ff(self.norm2(x))


class DecoderLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.self_attn = Attention(dim, n_heads)
        self.cross_attn = Attention(dim, n_heads)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.norm3 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, y, memory, tgt_mask, memory_mask):
        h = self.norm1(y)
        y = y + self.self_attn(h, h, tgt_mask, causal=True)
        y = y + self.cross_attn(self.norm2(y), memory, memory_mask)
        return y + self.ff(self.norm3(y))


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab=60, tgt_vocab=50, dim=32, n_heads=4, max_len=32):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, dim)
        self.tgt_embed = nn.Embedding(tgt_vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.encoder = nn.ModuleList(EncoderLayer(dim, n_heads) for _ in range(2))
        self.decoder = nn.ModuleList(DecoderLayer(dim, n_heads) for _ in range(2))
        self.enc_norm = nn.LayerNorm(dim)
        self.dec_norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, tgt_vocab)

    def encode(self, src_ids, src_mask):
        x = self.src_embed(src_ids) + self.pos(torch.arange(src_ids.shape[1], device=src_ids.device))
        for layer in self.encoder:
            x = layer(x, src_mask)
        return self.enc_norm(x)

    def decode(self, tgt_ids, memory, tgt_mask, memory_mask):
        y = self.tgt_embed(tgt_ids) + self.pos(torch.arange(tgt_ids.shape[1], device=tgt_ids.device))
        for layer in self.decoder:
            y = layer(y, memory, tgt_mask, memory_mask)
        return self.out(self.dec_norm(y))

    def forward(self, src_ids, tgt_ids, src_mask, tgt_mask):
        memory = self.encode(src_ids, src_mask)
        return self.decode(tgt_ids, memory, tgt_mask, memory_mask=tgt_mask)


def build():
    torch.manual_seed(0)
    model = Seq2Seq().eval()
    T = 8
    src_mask = (torch.arange(T)[None, :] < torch.tensor([5, 8])[:, None]).long()
    tgt_mask = (torch.arange(T)[None, :] < torch.tensor([8, 6])[:, None]).long()
    src_ids = torch.randint(1, 60, (2, T)) * src_mask
    tgt_ids = torch.randint(1, 50, (2, T)) * tgt_mask
    return model, (src_ids, tgt_ids, src_mask, tgt_mask)
