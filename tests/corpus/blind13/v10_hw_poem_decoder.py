"""Homework 4: a character-level poem generator.

Single-head causal self-attention written with bmm, two blocks, post-norm. Every character
may only look at itself and the characters before it.
"""
import math

import torch
import torch.nn as nn


class CausalHead(nn.Module):
    def __init__(self, d_model, d_k):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.d_k = d_k

    def forward(self, x):
        T = x.shape[1]
        Q, K, V = self.W_q(x), self.W_k(x), self.W_v(x)
        scores = torch.bmm(Q, K.transpose(1, 2)) / math.sqrt(self.d_k)
        future = torch.triu(torch.ones(T, T, device=x.device), diagonal=1)
        scores.masked_fill_(future == 0, -1e9)
        weights = torch.softmax(scores, dim=-1)
        return torch.bmm(weights, V)


class Block(nn.Module):
    def __init__(self, d_model=32, d_k=16):
        super().__init__()
        self.head = CausalHead(d_model, d_k)
        self.ln1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.ReLU(), nn.Linear(4 * d_model, d_model))
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.ln1(x + self.head(x))
        return self.ln2(x + self.ff(x))


class PoemGenerator(nn.Module):
    def __init__(self, n_chars=30, d_model=32, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(n_chars, d_model)
        self.position = nn.Embedding(max_len, d_model)
        self.blocks = nn.Sequential(Block(d_model), Block(d_model))
        self.out = nn.Linear(d_model, n_chars)

    def forward(self, chars):
        T = chars.shape[1]
        x = self.embed(chars) + self.position(torch.arange(T, device=chars.device))
        return self.out(self.blocks(x))


def build():
    torch.manual_seed(0)
    model = PoemGenerator().eval()
    return model, (torch.randint(0, 30, (3, 12)),)
