"""Homework 3: a character-level GPT written from scratch.

Multi-head attention is implemented head by head to keep the shapes easy to follow:
each head takes its slice of the projected queries, keys and values, computes causal
scaled dot-product attention, and the heads' outputs are concatenated.
"""
import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.register_buffer("tril", torch.tril(torch.ones(max_len, max_len)))

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        outs = []
        for h in range(self.n_heads):
            sl = slice(h * self.head_dim, (h + 1) * self.head_dim)
            qh, kh, vh = q[:, :, sl], k[:, :, sl], v[:, :, sl]          # (B, T, hd)
            scores = qh @ kh.transpose(1, 2) / math.sqrt(self.head_dim)  # (B, T, T)
            scores = scores.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
            weights = torch.softmax(scores, dim=-1)
            outs.append(weights @ vh)                                     # (B, T, hd)
        out = torch.cat(outs, dim=1).view(B, T, D)
        return self.W_o(out)


class FeedForward(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        return self.net(x)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.sa = MultiHeadAttention(d_model, n_heads, max_len)
        self.ffwd = FeedForward(d_model)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        x = x + self.ffwd(self.ln2(x))
        return x


class CharGPT(nn.Module):
    def __init__(self, vocab_size=65, d_model=32, n_heads=4, n_layers=2, max_len=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, d_model)
        self.position_embedding = nn.Embedding(max_len, d_model)
        self.blocks = nn.Sequential(*[Block(d_model, n_heads, max_len) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.token_embedding(idx) + self.position_embedding(torch.arange(T, device=idx.device))
        x = self.blocks(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(32)
    model = CharGPT().eval()
    return model, (torch.randint(0, 65, (2, 12)),)
