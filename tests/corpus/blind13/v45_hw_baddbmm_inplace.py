"""Homework 4 (variant): multi-head attention with batched matrix multiplies.

Heads are folded into the batch as (B * H, T, d_k). The padding becomes an additive bias,
written in place with masked_fill_, and torch.baddbmm adds the scaled product Q K^T to it in
one call (beta * bias + alpha * Q @ K^T with alpha = 1 / sqrt(d_k)).
"""
import math

import torch
import torch.nn as nn


class BmmMultiHeadAttention(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.h, self.d_k = n_heads, d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def fold(self, x):
        B, T, _ = x.shape
        return x.view(B, T, self.h, self.d_k).permute(0, 2, 1, 3).reshape(B * self.h, T, self.d_k)

    def forward(self, x, pad):
        B, T, D = x.shape
        Q, K, V = self.fold(self.W_q(x)), self.fold(self.W_k(x)), self.fold(self.W_v(x))
        bias = torch.zeros(B, self.h, T, T, device=x.device)
        bias.masked_fill_(pad[:, None, None, :], float("-inf"))
        scores = torch.baddbmm(bias.view(B * self.h, T, T), Q, K.transpose(1, 2), alpha=1 / math.sqrt(self.d_k))
        A = torch.softmax(scores, dim=2)
        out = torch.bmm(A, V).view(B, self.h, T, self.d_k).permute(0, 2, 1, 3).reshape(B, T, D)
        return self.W_o(out)


class Encoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(20, d_model)
        self.attn = nn.ModuleList(BmmMultiHeadAttention(d_model) for _ in range(n_layers))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model)) for _ in range(n_layers))
        self.ln_a = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(n_layers))
        self.ln_f = nn.ModuleList(nn.LayerNorm(d_model) for _ in range(n_layers))

    def forward(self, tokens):
        pad = tokens.eq(0)
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1), device=tokens.device))
        for attn, ffn, ln_a, ln_f in zip(self.attn, self.ffn, self.ln_a, self.ln_f):
            x = ln_a(x + attn(x, pad))
            x = ln_f(x + ffn(x))
        return x


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    tokens = torch.randint(1, 50, (3, 10))
    tokens[0, 6:] = 0
    tokens[1, 9:] = 0
    return model, (tokens,)
