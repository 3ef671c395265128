"""Donut-style OCR-free document reader: a small conv/patch encoder over the page image and an
autoregressive text decoder that cross-attends to the visual tokens.

The decoder attention is written out by hand (it is also used to export attention maps).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class VisualEncoder(nn.Module):
    def __init__(self, dim=32, patch=8):
        super().__init__()
        self.patchify = nn.Conv2d(1, dim, kernel_size=patch, stride=patch)
        self.layer = nn.TransformerEncoderLayer(dim, 4, 2 * dim, dropout=0.0, batch_first=True, norm_first=True)

    def forward(self, page):
        return self.layer(self.patchify(page).flatten(2).transpose(1, 2))


class DecoderAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, memory=None, causal=False):
        B, T, D = x.shape
        src = x if memory is None else memory
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        k, v = self.kv(src).view(B, src.size(1), 2, self.h, -1).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
        probs = scores.softmax(dim=-1)
        if causal:
            keep = torch.tril(torch.ones(T, T, device=x.device))
            probs = probs * keep
        self.last_probs = probs
        out = probs @ v
        return self.o(out.transpose(1, 2).reshape(B, T, D))


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn, self.cross_attn = DecoderAttention(dim, heads), DecoderAttention(dim, heads)
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, memory):
        x = x + self.self_attn(self.n1(x), causal=True)
        x = x + self.cross_attn(self.n2(x), memory=memory)
        return x + self.ff(self.n3(x))


class DonutReader(nn.Module):
    def __init__(self, vocab=120, dim=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.encoder = VisualEncoder(dim)
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, page, prompt_ids):
        memory = self.encoder(page)
        x = self.embed(prompt_ids) + self.pos.weight[: prompt_ids.size(1)]
        for layer in self.layers:
            x = layer(x, memory)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = DonutReader().eval()
    page = torch.randn(2, 1, 32, 32)
    prompt_ids = torch.randint(0, 120, (2, 18))
    return model, (page, prompt_ids)
