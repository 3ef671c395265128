"""Document classifier that runs its encoder under CPU bfloat16 autocast.

Scores come out of the matmul in bfloat16, so the padding fill value is taken from the
scores' own dtype (torch.finfo(scores.dtype).min) rather than a float32 constant. The logits
are returned in float32.
"""
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def forward(self, x, pad):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.h, self.dh).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.dh).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.dh).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh)
        scores = scores.masked_fill(pad[:, None, None, :], torch.finfo(scores.dtype).min)
        w = torch.softmax(scores, dim=-1)
        return self.o(torch.matmul(w, v).transpose(1, 2).reshape(B, T, D))


class Layer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.attn = Attention(d)
        self.ff = nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, pad):
        x = self.ln1(x + self.attn(x, pad))
        return self.ln2(x + self.ff(x))


class BF16Classifier(nn.Module):
    def __init__(self, vocab=90, d=32, n_classes=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(32, d)
        self.layers = nn.ModuleList(Layer(d) for _ in range(2))
        self.cls = nn.Linear(d, n_classes)

    def forward(self, ids):
        pad = ids == 0
        with torch.autocast("cpu", dtype=torch.bfloat16):
            x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
            for layer in self.layers:
                x = layer(x, pad)
            logits = self.cls(x[:, 0])
        return logits.float()


def build():
    torch.manual_seed(0)
    model = BF16Classifier().eval()
    ids = torch.randint(1, 90, (3, 12))
    ids[1, 8:] = 0
    ids[2, 3:] = 0
    return model, (ids,)
