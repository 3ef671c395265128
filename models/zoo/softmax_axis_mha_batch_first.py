"""Batch-first input (B, T, d) fed to `nn.MultiheadAttention(batch_first=False)`: softmax over the batch axis.

`nn.MultiheadAttention` defaults to sequence-first (T, B, d). Given a (B, T, d) tensor it reads
the batch axis as the sequence and the time axis as the batch, so each token attends to the
tokens at the same position in the OTHER batch items, and its softmax normalizes over the
batch axis instead of the key positions of its own sequence. Nothing raises because the shape
is valid either way. Fix: `nn.MultiheadAttention(d, H, batch_first=True)` (or transpose the
input to (T, B, d)). The finding code chosen for it is softmax-axis (over the batch axis).
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class Encoder(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads)  # batch_first=False by default
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):  # x: (B, T, d), batch first
        out, _ = self.attn(x, x, x)  # BUG: softmax-axis
        return self.norm(x + out)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    x = torch.randn(2, 5, 16)  # B=2, T=5
    return model, (x,)
