"""A two-layer prefix LM whose mask tests the QUERY index against the prefix length (`query < prefix`): the prompt reads the targets, and the next layer hands them to earlier targets.

The first P tokens (the prompt) should attend to each other both ways, and every later token
to the whole prompt and causally to the targets before it: `(key <= query) | (key < P)`.
Written `(key <= query) | (query < P)`, the prompt's queries read every key, the targets
included; in one layer only the prompt's outputs see ahead, but from the second layer on every
target reads the prompt's states and through them the tokens after it. Fix: compare the key
index, `key < self.prefix`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("causal-leak",)


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
        scores = scores.masked_fill(~visible, float("-inf"))  # BUG: causal-leak
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
        visible = (key <= query) | (query < self.prefix)
        x = self.tok(ids) + self.pos(torch.arange(T))
        for block in self.blocks:
            x = block(x, visible)
        return self.head(x)


def build():
    torch.manual_seed(0)
    return PrefixLM().eval(), (torch.randint(0, 32, (2, 10)),)
