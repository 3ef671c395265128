"""A character language model whose local attention window was taken from an encoder: |i - j| <= w.

The band reaches `w` positions ahead as well as behind, so while predicting token t + 1 the
model reads it. Nothing in the mask alone says it is meant to be causal (an encoder's local
attention is written the same way); the model's output says so: scores over its own token
vocabulary at every position, a language model. Fix: keep `(j <= i) & (j > i - w)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-leak",)


class LocalLanguageModel(nn.Module):
    def __init__(self, vocab: int = 28, width: int = 16, heads: int = 2, radius: int = 2):
        super().__init__()
        self.heads, self.radius = heads, radius
        self.embed = nn.Embedding(vocab, width)
        self.qkv = nn.Linear(width, 3 * width)
        self.norm = nn.LayerNorm(width)
        self.unembed = nn.Linear(width, vocab)

    def forward(self, chars):
        x = self.embed(chars)
        b, t, width = x.shape
        q, k, v = self.qkv(self.norm(x)).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        distance = torch.arange(t)[:, None] - torch.arange(t)[None, :]
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(distance.abs() > self.radius, float("-inf"))  # BUG: causal-leak
        x = x + (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(b, t, width)
        return self.unembed(x)


def build():
    torch.manual_seed(0)
    return LocalLanguageModel().eval(), (torch.randint(0, 28, (2, 9)),)
