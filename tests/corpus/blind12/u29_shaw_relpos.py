"""Transformer encoder with relative position representations (Shaw, Uszkoreit & Vaswani, 2018).

Each head adds learned relative-position vectors to the keys (a^K) and to the values (a^V);
relative distances are clipped to [-k, k]. No absolute positions are used. Sentences are
right padded; `mask` is 1 for real tokens.
"""
import math

import torch
import torch.nn as nn


class RelativePosition(nn.Module):
    def __init__(self, d_head, max_relative_position):
        super().__init__()
        self.k = max_relative_position
        self.table = nn.Parameter(torch.randn(2 * self.k + 1, d_head) * 0.1)

    def forward(self, len_q, len_k):
        dist = torch.arange(len_k)[None, :] - torch.arange(len_q)[:, None]
        idx = torch.clamp(dist, -self.k, self.k) + self.k
        return self.table[idx]                                   # (len_q, len_k, d_head)


class RelativeMultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, k=3):
        super().__init__()
        self.h, self.d = n_heads, d_model // n_heads
        self.fc_q, self.fc_k, self.fc_v = (nn.Linear(d_model, d_model) for _ in range(3))
        self.fc_o = nn.Linear(d_model, d_model)
        self.rel_k = RelativePosition(self.d, k)
        self.rel_v = RelativePosition(self.d, k)

    def forward(self, x, mask):
        B, L, _ = x.shape
        q = self.fc_q(x).view(B, L, self.h, self.d).permute(0, 2, 1, 3)
        k = self.fc_k(x).view(B, L, self.h, self.d).permute(0, 2, 1, 3)
        v = self.fc_v(x).view(B, L, self.h, self.d).permute(0, 2, 1, 3)
        a_k = self.rel_k(L, L)
        a_v = self.rel_v(L, L)
        scores = q @ k.transpose(-1, -2) + torch.einsum("bhqd,qkd->bhqk", q, a_k)
        scores = scores / math.sqrt(self.d)
        scores = scores.masked_fill(mask[:, None, None, :] == 0, -1e10)
        attn = torch.softmax(scores, dim=-1)
        out = attn @ v + torch.einsum("bhqk,qkd->bhqd", attn, a_v)
        return self.fc_o(out.permute(0, 2, 1, 3).reshape(B, L, -1))


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = RelativeMultiHeadAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x, mask):
        x = self.ln1(x + self.attn(x, mask))
        return self.ln2(x + self.ff(x))


class RelPosTagger(nn.Module):
    def __init__(self, vocab=70, d_model=32, n_heads=4, layers=2, n_tags=9):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads) for _ in range(layers)])
        self.tagger = nn.Linear(d_model, n_tags)

    def forward(self, tokens, mask):
        x = self.emb(tokens) * math.sqrt(self.emb.embedding_dim)
        for layer in self.layers:
            x = layer(x, mask)
        return self.tagger(x)


def build():
    torch.manual_seed(29)
    model = RelPosTagger().eval()
    lengths = torch.tensor([12, 8, 4])
    mask = (torch.arange(12)[None] < lengths[:, None]).long()
    tokens = torch.randint(1, 70, (3, 12)) * mask
    return model, (tokens, mask)
