"""Homework 5: a Transformer encoder from scratch (no nn.LayerNorm, no nn.MultiheadAttention).

Pre-norm residual blocks, multi-head attention with a padding mask, mean pooling over the real
tokens for sentiment classification.
"""
import math

import torch
import torch.nn as nn


class MyLayerNorm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.gain = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))

    def forward(self, x):
        mu = x.mean(dim=-1, keepdim=True)
        var = torch.var(x, dim=-1, keepdim=True)
        return self.gain * (x - mu) / torch.sqrt(var + self.eps) + self.bias


class MyMultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.W_qkv = nn.Linear(d_model, 3 * d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        qkv = self.W_qkv(x).reshape(B, T, 3, self.n_heads, self.d_k)
        Q, K, V = qkv.permute(2, 0, 3, 1, 4)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)
        scores = scores.masked_fill(pad_mask[:, None, None, :], float("-inf"))
        A = torch.softmax(scores, dim=-1)
        out = (A @ V).transpose(1, 2).reshape(B, T, D)
        return self.W_o(out)


class EncoderBlock(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.norm1, self.norm2 = MyLayerNorm(d_model), MyLayerNorm(d_model)
        self.mha = MyMultiHeadAttention(d_model, n_heads)
        self.ffn = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x, pad_mask):
        x = x + self.mha(self.norm1(x), pad_mask)
        return x + self.ffn(self.norm2(x))


class SentimentClassifier(nn.Module):
    def __init__(self, vocab=100, d_model=32, n_layers=2, max_len=20):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(max_len, d_model) * 0.02)
        self.blocks = nn.ModuleList(EncoderBlock(d_model) for _ in range(n_layers))
        self.norm = MyLayerNorm(d_model)
        self.fc = nn.Linear(d_model, 2)

    def forward(self, tokens):
        pad_mask = tokens == 0
        x = self.emb(tokens) * math.sqrt(self.emb.embedding_dim) + self.pos[: tokens.size(1)]
        for blk in self.blocks:
            x = blk(x, pad_mask)
        x = self.norm(x)
        keep = (~pad_mask).unsqueeze(-1).float()
        return self.fc((x * keep).sum(1) / keep.sum(1))


def build():
    torch.manual_seed(0)
    model = SentimentClassifier().eval()
    tokens = torch.randint(1, 100, (3, 10))
    tokens[0, 8:] = 0
    tokens[2, 5:] = 0
    return model, (tokens,)
