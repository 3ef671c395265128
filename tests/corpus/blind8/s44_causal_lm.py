import math
import torch
import torch.nn as nn


class MaskedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)

    def split(self, t):
        B, T, _ = t.shape
        return t.reshape(B, T, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.split(self.wq(x)), self.split(self.wk(x)), self.split(self.wv(x))
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.d_k)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        scores = scores.masked_fill(future, float("-inf"))
        p = torch.softmax(scores, dim=-2)
        ctx = torch.matmul(p, v).transpose(1, 2).reshape(B, T, D)
        return self.wo(ctx)


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = MaskedSelfAttention(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.n1 = nn.LayerNorm(d_model)
        self.n2 = nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.n1(x + self.attn(x))
        return self.n2(x + self.ff(x))


class LM(nn.Module):
    def __init__(self, vocab=48, d_model=32, n_heads=4, n_layers=2, max_len=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model, n_heads) for _ in range(n_layers))
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = LM().eval()
    ids = torch.randint(0, 48, (2, 8))
    return model, (ids,)
