"""Mixture-of-depths encoder: a router sends the top-k tokens of each sequence through the block."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TransformerBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class MoDBlock(nn.Module):
    def __init__(self, dim, heads, capacity=0.5):
        super().__init__()
        self.capacity = capacity
        self.router = nn.Linear(dim, 1)
        self.block = TransformerBlock(dim, heads)

    def forward(self, x):
        B, T, D = x.shape
        k = max(1, int(T * self.capacity))
        logits = self.router(x).squeeze(-1)  # (B, T)
        top = torch.topk(logits, k, dim=1, sorted=False).indices
        top, _ = torch.sort(top, dim=1)  # keep the selected tokens in temporal order
        idx = top.unsqueeze(-1).expand(-1, -1, D)
        selected = torch.gather(x, 1, idx)
        weight = torch.sigmoid(torch.gather(logits, 1, top)).unsqueeze(-1)
        update = (self.block(selected) - selected) * weight
        return x.scatter_add(1, idx, update)


class MoDEncoder(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=3, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(MoDBlock(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos(torch.arange(tokens.shape[1], device=tokens.device))
        for layer in self.layers:
            x = layer(x)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = MoDEncoder().eval()
    tokens = torch.randint(0, 64, (3, 10))
    return model, (tokens,)
