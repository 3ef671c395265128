"""Correct: Perceiver-like: L learned latents cross-attend to T input tokens, then self-attend among themselves.

Trap for a checker that only knows text: the queries are a parameter expanded over the batch,
so the latent axis comes from no input, and L ≠ T.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


def attend(q, k, v, heads):
    B, Tq, D = q.shape
    split = lambda t: t.reshape(B, t.shape[1], heads, D // heads).transpose(1, 2)  # noqa: E731
    q, k, v = split(q), split(k), split(v)
    sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * (D // heads) ** -0.5
    out = torch.einsum("b h i j, b h j d -> b h i d", sim.softmax(dim=-1), v)
    return out.transpose(1, 2).reshape(B, Tq, D)


class Perceiver(nn.Module):
    def __init__(self, dim: int = 16, latents: int = 4, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.latents = nn.Parameter(torch.randn(latents, dim))
        self.cross_q, self.cross_kv = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim)
        self.self_qkv = nn.Linear(dim, 3 * dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, data):
        x = self.latents.unsqueeze(0).expand(data.shape[0], -1, -1)  # (B, L, dim)
        k, v = self.cross_kv(data).chunk(2, dim=-1)
        x = x + attend(self.cross_q(x), k, v, self.heads)
        q, k, v = self.self_qkv(self.norm(x)).chunk(3, dim=-1)
        return x + attend(q, k, v, self.heads)


def build():
    torch.manual_seed(0)
    model = Perceiver().eval()
    return model, (torch.randn(2, 7, 16),)
