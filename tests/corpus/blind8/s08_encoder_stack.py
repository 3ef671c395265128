import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, key_padding_mask=None):
        B, T, _ = x.shape
        q = self.W_q(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        k = self.W_k(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        v = self.W_v(x).view(B, T, self.h, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if key_padding_mask is not None:
            scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        attn = self.drop(scores.softmax(dim=-1))
        out = (attn @ v).transpose(1, 2).contiguous().view(B, T, -1)
        return self.W_o(out)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff):
        super().__init__()
        self.attn = SelfAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.drop = nn.Dropout(0.1)

    def forward(self, x, key_padding_mask=None):
        x = self.ln1(x + self.drop(self.attn(x, key_padding_mask)))
        x = self.ln2(x + self.drop(self.ff(x)))
        return x


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=32, n_heads=4, d_ff=64, n_layers=2, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads, d_ff) for _ in range(n_layers)])

    def forward(self, tokens, key_padding_mask):
        T = tokens.size(1)
        pos = torch.arange(T, device=tokens.device)
        x = self.tok(tokens) * math.sqrt(self.tok.embedding_dim) + self.pos(pos)[None]
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        return x


def build():
    torch.manual_seed(0)
    model = Encoder(vocab=40).eval()
    tokens = torch.tensor([[5, 9, 13, 2, 8, 21, 7],
                           [11, 3, 17, 6, 0, 0, 0]])
    key_padding_mask = tokens == 0
    return model, (tokens, key_padding_mask)
