"""Correct: the 1/sqrt(d_k) scale is folded into q before the product, not applied to the scores.

Trap for a checker that looks for a division of the score table: `q = q * d_k ** -0.5` then
`q @ k^T` gives exactly the scaled scores, so no scale-factor warning is due.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PreScaledAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.scale = self.d_k ** -0.5
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, T, d)
        return self.proj(out)


def build():
    torch.manual_seed(0)
    model = PreScaledAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
