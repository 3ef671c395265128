"""Tiny transformer encoder for sequence classification."""
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dim_head = dim // heads
        self.scale = self.dim_head**-0.5
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).view(b, n, 3, self.heads, self.dim_head).unbind(dim=2)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) * self.scale
        attn = torch.softmax(scores, dim=0)
        out = torch.einsum("bhqk,bkhd->bqhd", attn, v)
        return self.to_out(out.reshape(b, n, -1))


class EncoderBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.ff(self.norm2(x))


class TinyTransformer(nn.Module):
    def __init__(self, vocab=60, dim=32, heads=4, depth=2, num_classes=5, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(1, max_len, dim) * 0.02)
        self.blocks = nn.Sequential(*[EncoderBlock(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.classifier = nn.Linear(dim, num_classes)

    def forward(self, tokens):
        x = self.embed(tokens) + self.pos[:, : tokens.shape[1]]
        x = self.norm(self.blocks(x))
        return self.classifier(x.mean(dim=1))


def build():
    torch.manual_seed(0)
    model = TinyTransformer().eval()
    tokens = torch.randint(0, 60, (3, 8))
    return model, (tokens,)
