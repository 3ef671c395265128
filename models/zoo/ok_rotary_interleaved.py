"""Interleaved (GPT-J style) rotary embeddings over pairs (2i, 2i+1), with frequencies from `arange(0, d, 2)`: correct.

The frequency index `arange(0, d_head, 2)` steps over features; it is no position table,
and the positions come from `arange(T)` only.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def rotate_pairs(x):
    B, H, T, D = x.shape
    inv_freq = 1.0 / (10000 ** (torch.arange(0, D, 2).float() / D))
    angles = torch.outer(torch.arange(T).float(), inv_freq)  # (T, D/2)
    cos, sin = angles.cos(), angles.sin()
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack([even * cos - odd * sin, even * sin + odd * cos], dim=-1).flatten(-2)


class RotaryLM(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        y = F.scaled_dot_product_attention(rotate_pairs(q), rotate_pairs(k), v, is_causal=True)
        return self.head(y.transpose(1, 2).reshape(B, T, C))


def build():
    torch.manual_seed(0)
    model = RotaryLM().eval()
    return model, (torch.randint(0, 30, (2, 7)),)
