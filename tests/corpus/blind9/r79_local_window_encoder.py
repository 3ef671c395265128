import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalSelfAttention(nn.Module):
    def __init__(self, dim, heads, window):
        super().__init__()
        self.heads = heads
        self.window = window
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def band_mask(self, n, device=None):
        idx = torch.arange(n, device=device)
        return (idx[None, :] - idx[:, None]).abs() <= self.window

    def forward(self, x, key_padding_mask):
        b, n, c = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        allowed = self.band_mask(n, x.device)[None, None] & ~key_padding_mask[:, None, None, :]
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(c // self.heads)
        scores = scores.masked_fill(~allowed, torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)
        y = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return self.out(y)


class LocalEncoderLayer(nn.Module):
    def __init__(self, dim, heads, window):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = LocalSelfAttention(dim, heads, window)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, key_padding_mask):
        x = x + self.attn(self.norm1(x), key_padding_mask)
        return x + self.mlp(self.norm2(x))


class LocalWindowEncoder(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, depth=2, window=2, max_len=64, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.embed = nn.Embedding(vocab, dim, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([LocalEncoderLayer(dim, heads, window) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids):
        key_padding_mask = input_ids.eq(self.pad_id)
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.size(1)))[None]
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = LocalWindowEncoder().eval()
    input_ids = torch.randint(1, 60, (2, 14))
    input_ids[1, 10:] = 0
    return model, (input_ids,)
