import math

import torch
import torch.nn as nn


def alibi_slopes(n_heads):
    start = 2 ** (-(2 ** -(math.log2(n_heads) - 3)))
    return torch.tensor([start * start ** i for i in range(n_heads)])


class ALiBiAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h = heads
        self.dh = d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.register_buffer("slopes", alibi_slopes(heads), persistent=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        i = torch.arange(T, device=x.device)[:, None]
        j = torch.arange(T, device=x.device)[None, :]
        bias = -self.slopes[:, None, None] * (i - j).clamp(min=0)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.dh) + bias
        scores = scores.masked_fill(j > i, 0.0)
        attn = scores.softmax(dim=-1)
        return self.out((attn @ v).transpose(1, 2).reshape(B, T, D))


class ALiBiLM(nn.Module):
    def __init__(self, vocab=50, d=32, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(
            [nn.ModuleList([nn.LayerNorm(d), ALiBiAttention(d), nn.LayerNorm(d),
                            nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))]) for _ in range(n_layers)]
        )
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, tokens):
        x = self.embed(tokens)
        for n1, attn, n2, ff in self.blocks:
            x = x + attn(n1(x))
            x = x + ff(n2(x))
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = ALiBiLM().eval()
    tokens = torch.randint(0, 50, (2, 10))
    return model, (tokens,)
