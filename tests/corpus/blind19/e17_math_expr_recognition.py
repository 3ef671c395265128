"""Handwritten mathematical expression recognition (image-to-LaTeX).

A DenseNet-lite CNN encodes the formula image into a 2-D feature grid, flattened into a memory
sequence; a Transformer decoder with hand-written attention emits LaTeX tokens."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, h, p=0.1):
        super().__init__()
        self.h, self.p = h, p
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, mem, causal=False):
        B, T, D = x.shape
        S = mem.size(1)
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        k, v = self.kv(mem).chunk(2, -1)
        k = k.view(B, S, self.h, -1).transpose(1, 2)
        v = v.view(B, S, self.h, -1).transpose(1, 2)
        s = q @ k.transpose(-1, -2) / math.sqrt(D // self.h)
        if causal:
            s = s.masked_fill(torch.ones(T, S, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
        a = F.dropout(s.softmax(-1), self.p)
        return self.o((a @ v).transpose(1, 2).reshape(B, T, D))


class DecoderBlock(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.sa, self.ca = Attention(d, h), Attention(d, h)
        self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, mem):
        y = self.n1(x)
        x = x + self.sa(y, y, causal=True)
        x = x + self.ca(self.n2(x), mem)
        return x + self.ff(self.n3(x))


class Im2Latex(nn.Module):
    def __init__(self, vocab=110, d=32, h=4, layers=2):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, d, 3, padding=1), nn.BatchNorm2d(d), nn.ReLU(),
        )
        self.row_pos = nn.Parameter(torch.randn(16, 1, d) * 0.02)
        self.col_pos = nn.Parameter(torch.randn(1, 32, d) * 0.02)
        self.tok = nn.Embedding(vocab, d)
        self.tok_pos = nn.Embedding(32, d)
        self.blocks = nn.ModuleList(DecoderBlock(d, h) for _ in range(layers))
        self.out = nn.Linear(d, vocab)

    def forward(self, image, tokens):
        f = self.cnn(image).permute(0, 2, 3, 1)             # (B, H, W, d)
        H, W = f.shape[1:3]
        mem = (f + self.row_pos[:H] + self.col_pos[:, :W]).flatten(1, 2)
        x = self.tok(tokens) + self.tok_pos.weight[: tokens.size(1)]
        for blk in self.blocks:
            x = blk(x, mem)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = Im2Latex().eval()
    image = torch.randn(2, 1, 8, 24)
    tokens = torch.randint(0, 110, (2, 12))
    return model, (image, tokens)
