"""Padded encoder that zeroes padded keys and padded query rows around the softmax."""
import torch
import torch.nn as nn


class PaddedSelfAttention(nn.Module):
    def __init__(self, dim, heads, attn_drop=0.1):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.attn_drop = nn.Dropout(attn_drop)

    def forward(self, x, attention_mask):
        # attention_mask: (B, T) bool, True for real tokens
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        key_mask = attention_mask[:, None, None, :]
        scores = (q @ k.transpose(-1, -2)) * self.scale
        scores = scores.masked_fill(~key_mask, float("-inf"))
        probs = scores.softmax(dim=-1)
        probs = probs.masked_fill(~key_mask, 0.0)
        probs = self.attn_drop(probs)
        out = (probs @ v).transpose(1, 2).reshape(B, T, C)
        out = out.masked_fill(~attention_mask[..., None], 0.0)
        return self.proj(out)


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = PaddedSelfAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Dropout(0.1), nn.Linear(4 * dim, dim))

    def forward(self, x, attention_mask):
        x = x + self.attn(self.norm1(x), attention_mask)
        return x + self.ff(self.norm2(x))


class Encoder(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(Layer(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids, attention_mask):
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.shape[1], device=input_ids.device))
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    attention_mask = torch.arange(10)[None, :] < torch.tensor([10, 7, 3])[:, None]
    input_ids = torch.randint(1, 64, (3, 10)) * attention_mask
    return model, (input_ids, attention_mask)
