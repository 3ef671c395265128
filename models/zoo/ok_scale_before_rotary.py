"""The query scaled by 1/sqrt(d_k) before rotary embeddings are applied (ESM style), scores then left unscaled: correct.

A rotation keeps every vector's norm, so `rotate(q / sqrt(d_k)) · rotate(k)` is the scaled
dot product whichever comes first.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def rotate_half(x):
    first, second = x.chunk(2, dim=-1)
    return torch.cat((-second, first), dim=-1)


class ScaledThenRotated(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        d_head = q.shape[-1]
        inv_freq = 1.0 / (10000 ** (torch.arange(0, d_head, 2).float() / d_head))
        angles = torch.outer(torch.arange(T).float(), inv_freq).repeat(1, 2)  # (T, d_head)
        cos, sin = angles.cos(), angles.sin()
        q = q * d_head ** -0.5
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        weights = F.softmax(q @ k.transpose(-2, -1), dim=-1)
        return (weights @ v).transpose(1, 2).reshape(B, T, C)


def build():
    torch.manual_seed(0)
    model = ScaledThenRotated().eval()
    return model, (torch.randn(2, 6, 16),)
