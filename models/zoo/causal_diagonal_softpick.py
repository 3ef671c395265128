"""A decoder with softpick attention (a rectified softmax) whose allowed set is the complement of `triu()`: no token sees itself.

softpick(x) = relu(exp(x) - 1) / sum |exp(x) - 1|, with masked entries out of both sums. The
allowed set `~ones.triu()` is the strictly lower triangle, so each query reads only earlier
tokens and the first reads nothing. Fix: `~ones.triu(1)`. Twin of ok_softpick_causal.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-diagonal",)


def softpick(scores: torch.Tensor, allowed: torch.Tensor) -> torch.Tensor:
    scores = scores.masked_fill(~allowed, float("-inf"))  # BUG: causal-diagonal
    peak = scores.amax(dim=-1, keepdim=True).clamp(min=-1e4)
    shifted = torch.exp(scores - peak) - torch.exp(-peak)
    shifted = shifted.masked_fill(~allowed, 0.0)
    return shifted.relu() / (shifted.abs().sum(dim=-1, keepdim=True) + 1e-6)


class SoftpickDecoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        allowed = ~torch.ones(T, T, dtype=torch.bool).triu()
        weights = softpick(q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1]), allowed)
        return self.head(x + (weights @ v).transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    return SoftpickDecoder().eval(), (torch.randint(0, 30, (2, 8)),)
