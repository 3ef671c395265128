"""Perceiver cross-attention whose softmax normalizes over the latents (the queries) instead of the inputs (the keys).

The L learned latents read the T input tokens; each latent's weights must sum to one over the
inputs, the axis `attn @ v` sums over. `sim.softmax(dim=-2)` normalizes each input's column
over the latents instead (the slot-attention formula, which then needs its own renormalization
over the inputs; here there is none). Fix: `sim.softmax(dim=-1)`.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("softmax-axis",)


class CrossAttend(nn.Module):
    def __init__(self, dim: int = 16, latents: int = 4, heads: int = 2):
        super().__init__()
        self.heads, self.scale = heads, (dim // heads) ** -0.5
        self.latents = nn.Parameter(torch.randn(latents, dim))
        self.to_q, self.to_kv = nn.Linear(dim, dim, bias=False), nn.Linear(dim, 2 * dim, bias=False)

    def forward(self, data):
        B, T, D = data.shape
        x = self.latents.unsqueeze(0).expand(B, -1, -1)
        q = self.to_q(x).reshape(B, -1, self.heads, D // self.heads).transpose(1, 2)
        k, v = (t.reshape(B, T, self.heads, D // self.heads).transpose(1, 2) for t in self.to_kv(data).chunk(2, -1))
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        attn = sim.softmax(dim=-2)  # BUG: softmax-axis
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        return x + out.transpose(1, 2).reshape(B, -1, D)


def build():
    torch.manual_seed(0)
    model = CrossAttend().eval()
    return model, (torch.randn(2, 7, 16),)
