"""Transformer captioning decoder over grid features (M2-style, without the memory slots).

Teacher-forced training and greedy inference share the same forward; the future of the
caption is hidden with a triangular mask built once per length.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def subsequent_mask(size, device=None):
    """Additive mask: -inf where the key position comes after the query position."""
    upper = torch.triu(torch.ones(size, size, dtype=torch.bool, device=device), diagonal=2)
    return torch.zeros(size, size, device=device).masked_fill(upper, float("-inf"))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.enc_attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, ff), nn.ReLU(), nn.Linear(ff, d))
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, enc, self_mask):
        x = self.ln1(x + self.self_attn(x, x, x, attn_mask=self_mask, need_weights=False)[0])
        x = self.ln2(x + self.enc_attn(x, enc, enc, need_weights=False)[0])
        return self.ln3(x + self.ff(x))


class CaptionDecoder(nn.Module):
    def __init__(self, vocab=160, d=48, heads=4, layers=2, feat_dim=64, max_len=40):
        super().__init__()
        self.word_emb = nn.Embedding(vocab, d)
        self.pos_emb = nn.Embedding(max_len, d)
        self.grid_proj = nn.Sequential(nn.Linear(feat_dim, d), nn.ReLU(), nn.LayerNorm(d))
        self.layers = nn.ModuleList([DecoderLayer(d, heads, 2 * d) for _ in range(layers)])
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, grid, tokens):
        T = tokens.size(1)
        pos = torch.arange(T, device=tokens.device)
        x = self.word_emb(tokens) * math.sqrt(self.word_emb.embedding_dim) + self.pos_emb(pos)
        enc = self.grid_proj(grid)
        mask = subsequent_mask(T, tokens.device)
        for layer in self.layers:
            x = layer(x, enc, mask)
        return F.log_softmax(self.head(x), dim=-1)


def build():
    torch.manual_seed(0)
    model = CaptionDecoder().eval()
    grid = torch.randn(2, 16, 64)
    tokens = torch.randint(0, 160, (2, 14))
    return model, (grid, tokens)
