import math

import torch
import torch.nn as nn


class LayerNorm(nn.Module):
    def __init__(self, features, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(features))
        self.beta = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        var = (x * x).mean(-1, keepdim=True)
        return self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.fc = nn.Linear(d_model, d_model)

    def forward(self, x, pad_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        scores = scores.masked_fill(pad_mask[:, None, None, :], -1e9)
        out = scores.softmax(-1) @ v
        return self.fc(out.transpose(1, 2).reshape(b, t, d))


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = MultiHeadAttention(d_model, n_heads)
        self.norm1 = LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.norm2 = LayerNorm(d_model)

    def forward(self, x, pad_mask):
        x = self.norm1(x + self.attn(x, pad_mask))
        return self.norm2(x + self.ff(x))


class IntentEncoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_heads=4, n_layers=2, n_intents=5, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads) for _ in range(n_layers)])
        self.cls = nn.Linear(d_model, n_intents)

    def forward(self, tokens):
        pad_mask = tokens == 0
        x = self.embed(tokens) + self.pos(torch.arange(tokens.size(1)))[None]
        for layer in self.layers:
            x = layer(x, pad_mask)
        return self.cls(x[:, 0]), x


def build():
    torch.manual_seed(0)
    model = IntentEncoder().eval()
    tokens = torch.randint(1, 50, (3, 8))
    tokens[1, 5:] = 0
    return model, (tokens,)
