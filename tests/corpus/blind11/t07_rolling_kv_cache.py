"""Sliding-window decoder (Mistral-style) decoding token by token with a ring-buffer KV cache."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rope(x, pos, base=10000.0):
    d = x.size(-1)
    inv_freq = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float32) / d)
    freqs = pos.float()[:, None] * inv_freq[None]
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


class RollingKVCache:
    """Keeps only the last `window` keys/values; slot = absolute position % window."""

    def __init__(self, batch, heads, window, head_dim):
        self.window = window
        self.k = torch.zeros(batch, heads, window, head_dim)
        self.v = torch.zeros(batch, heads, window, head_dim)
        self.seen = 0

    def update(self, k, v):
        slot = self.seen % self.window
        self.k[:, :, slot] = k[:, :, 0]
        self.v[:, :, slot] = v[:, :, 0]
        self.seen += 1
        valid = torch.arange(self.window) < min(self.seen, self.window)
        return self.k, self.v, valid


class SWAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)

    def forward(self, x, pos, cache):
        B = x.size(0)
        q, k, v = self.wqkv(x).view(B, 1, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        q, k = rope(q, pos), rope(k, pos)  # rotate with absolute positions before caching
        keys, values, valid = cache.update(k, v)
        scores = (q @ keys.transpose(-1, -2)) * self.dh ** -0.5
        scores = scores.masked_fill(~valid, float("-inf"))
        out = scores.softmax(dim=-1) @ values
        return self.wo(out.transpose(1, 2).reshape(B, 1, -1))


class SWDecoder(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4, window=4):
        super().__init__()
        self.window, self.heads = window, heads
        self.embed = nn.Embedding(vocab, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SWAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        B, T = input_ids.shape
        cache = RollingKVCache(B, self.heads, self.window, self.embed.embedding_dim // self.heads)
        outs = []
        for t in range(T):
            x = self.embed(input_ids[:, t : t + 1])
            x = x + self.attn(self.norm1(x), torch.tensor([t]), cache)
            x = x + self.mlp(self.norm2(x))
            outs.append(self.head(x))
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = SWDecoder().eval()
    return model, (torch.randint(0, 40, (2, 11)),)
