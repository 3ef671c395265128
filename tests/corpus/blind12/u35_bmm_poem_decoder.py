"""Week 6 exercise: a decoder-only poem generator.

Heads are folded into the batch dimension and attention is computed with torch.bmm. The
causal mask blocks the upper triangle of the score matrix (the future).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d_model, n_heads, block_size):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.register_buffer("future", torch.ones(block_size, block_size).triu())

    def forward(self, x):
        B, T, C = x.shape
        H, dh = self.n_heads, self.d_head
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        # (B, T, C) -> (B*H, T, dh)
        q = q.view(B, T, H, dh).permute(0, 2, 1, 3).reshape(B * H, T, dh)
        k = k.view(B, T, H, dh).permute(0, 2, 1, 3).reshape(B * H, T, dh)
        v = v.view(B, T, H, dh).permute(0, 2, 1, 3).reshape(B * H, T, dh)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(dh)
        scores = scores.masked_fill(self.future[:T, :T] == 1, -1e9)
        weights = F.softmax(scores, dim=-1)
        y = torch.bmm(weights, v).view(B, H, T, dh).permute(0, 2, 1, 3).reshape(B, T, C)
        return self.out(y)


class DecoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, block_size):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = CausalAttention(d_model, n_heads, block_size)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class PoemGenerator(nn.Module):
    def __init__(self, vocab=90, d_model=32, n_heads=4, n_layers=2, block_size=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.zeros(1, block_size, d_model))
        nn.init.normal_(self.pos, std=0.02)
        self.blocks = nn.ModuleList([DecoderBlock(d_model, n_heads, block_size) for _ in range(n_layers)])
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        x = self.tok(idx) + self.pos[:, : idx.size(1)]
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln(x))


def build():
    torch.manual_seed(35)
    model = PoemGenerator().eval()
    return model, (torch.randint(0, 90, (2, 12)),)
