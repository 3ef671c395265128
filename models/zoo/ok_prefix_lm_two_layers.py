"""A two-layer prefix LM whose mask lets every query see the keys of the prefix (`key index < prefix`) and the keys up to itself: correct.

The first P tokens (the prompt) attend to each other both ways; every later token attends to
the whole prompt and causally to the targets before it. The prefix condition is on the KEY
index, so no query, prompt or target, ever reads a target token after its own position, and
stacking layers cannot bring a later target back in.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class Block(nn.Module):
    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.h = n_heads
        self.norm = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, visible):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.h, -1).transpose(1, 2) for t in self.qkv(self.norm(x)).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.h)
        scores = scores.masked_fill(~visible, float("-inf"))
        return x + self.proj((F.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, C))


class PrefixLM(nn.Module):
    def __init__(self, vocab: int = 32, d_model: int = 16, n_heads: int = 2, n_layers: int = 2, prefix: int = 4):
        super().__init__()
        self.prefix = prefix
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(16, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads) for _ in range(n_layers))
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        T = ids.shape[1]
        query, key = torch.arange(T)[:, None], torch.arange(T)[None, :]
        visible = (key <= query) | (key < self.prefix)
        x = self.tok(ids) + self.pos(torch.arange(T))
        for block in self.blocks:
            x = block(x, visible)
        return self.head(x)


def build():
    torch.manual_seed(0)
    return PrefixLM().eval(), (torch.randint(0, 32, (2, 10)),)
