"""Homework 6: translation decoder layer (masked self-attention + cross-attention), written
with explicit matrices. Dropout on the attention weights as in the original paper."""
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d_model, n_heads, p_drop=0.1):
        super().__init__()
        self.h, self.d_k, self.p_drop = n_heads, d_model // n_heads, p_drop
        self.Wq = nn.Linear(d_model, d_model)
        self.Wk = nn.Linear(d_model, d_model)
        self.Wv = nn.Linear(d_model, d_model)
        self.Wo = nn.Linear(d_model, d_model)

    def split(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.h, self.d_k).transpose(1, 2)

    def forward(self, x, memory, keep):
        q, k, v = self.split(self.Wq(x)), self.split(self.Wk(memory)), self.split(self.Wv(memory))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_k)
        scores = scores.masked_fill(keep == 0, -1e9)
        weights = scores.softmax(dim=-1)
        weights = nn.Dropout(self.p_drop)(weights)
        out = (weights @ v).transpose(1, 2).flatten(2)
        return self.Wo(out)


class DecoderLayer(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.self_attn = Attention(d_model, n_heads)
        self.cross_attn = Attention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))
        self.n1, self.n2, self.n3 = nn.LayerNorm(d_model), nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, y, memory, self_keep, cross_keep):
        y = self.n1(y + self.self_attn(y, y, self_keep))
        y = self.n2(y + self.cross_attn(y, memory, cross_keep))
        return self.n3(y + self.ff(y))


class Translator(nn.Module):
    def __init__(self, vocab=60, d_model=32, max_len=16):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.tgt_emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model) for _ in range(2))
        self.gen = nn.Linear(d_model, vocab)

    def forward(self, src, tgt):
        S, T = src.size(1), tgt.size(1)
        memory = self.src_emb(src) + self.pos(torch.arange(S, device=src.device))
        y = self.tgt_emb(tgt) + self.pos(torch.arange(T, device=tgt.device))
        self_keep = torch.tril(torch.ones(T, T, device=tgt.device))[None, None]
        cross_keep = (src != 0)[:, None, None, :]
        for layer in self.layers:
            y = layer(y, memory, self_keep, cross_keep)
        return self.gen(y)


def build():
    torch.manual_seed(0)
    model = Translator().eval()
    src = torch.randint(1, 60, (2, 9))
    src[1, 6:] = 0
    tgt = torch.randint(1, 60, (2, 7))
    return model, (src, tgt)
