"""Big Bird style sparse encoder (Zaheer et al., 2020) for document classification:
sliding window + global tokens + a fixed set of random keys per query.
"""
import math

import torch
import torch.nn as nn


def bigbird_pattern(max_len, window=2, n_global=2, n_random=2, seed=0):
    g = torch.Generator().manual_seed(seed)
    i = torch.arange(max_len)[:, None]
    j = torch.arange(max_len)[None, :]
    allowed = ((i - j).abs() <= window) | (i < n_global) | (j < n_global)
    rand = torch.zeros(max_len, max_len, dtype=torch.bool)
    for r in range(max_len):
        rand[r, torch.randperm(max_len, generator=g)[:n_random]] = True
    return allowed | rand


class BigBirdAttention(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.register_buffer("pattern", bigbird_pattern(max_len), persistent=False)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.dk).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.dk).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dk)
        scores = scores.masked_fill(~self.pattern[:T, :T], float("-inf"))
        probs = scores.softmax(dim=-1)
        probs = probs * attention_mask[:, None, None, :].to(probs.dtype)
        out = (probs @ v).transpose(1, 2).reshape(B, T, D)
        return self.o(out)


class Layer(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.attn = BigBirdAttention(d_model, n_heads, max_len)
        self.ln1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, attention_mask):
        x = self.ln1(x + self.attn(x, attention_mask))
        return self.ln2(x + self.ff(x))


class BigBirdClassifier(nn.Module):
    def __init__(self, vocab=100, d_model=32, n_heads=4, layers=2, max_len=64, n_classes=5):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(Layer(d_model, n_heads, max_len) for _ in range(layers))
        self.cls_head = nn.Linear(d_model, n_classes)

    def forward(self, input_ids, attention_mask):
        T = input_ids.size(1)
        x = self.tok(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.cls_head(x[:, 0])


def build():
    torch.manual_seed(0)
    model = BigBirdClassifier().eval()
    lengths = torch.tensor([20, 13, 9])
    attention_mask = (torch.arange(20)[None, :] < lengths[:, None]).long()
    input_ids = torch.randint(1, 100, (3, 20)) * attention_mask
    return model, (input_ids, attention_mask)
