"""`nn.functional.dropout(out, self.p)` on the attention output of a sequence-first block: active in eval mode.

The residual dropout is written functionally without `training=self.training`, so it keeps
zeroing 20% of the output features (and scaling the rest by 1.25) after `model.eval()`:
inference is random. Fix: pass `training=self.training`, or use `self.drop = nn.Dropout(p)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("dropout-eval",)


class SeqFirstBlock(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4, p: float = 0.2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.p = p
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x):  # x: (T, B, d)
        T, B, d = x.shape
        H, dk = self.n_heads, self.d_k
        q, k, v = self.in_proj(x).view(T, B, 3, H, dk).unbind(dim=2)
        scores = torch.einsum("ibhd,jbhd->bhij", q, k) / math.sqrt(dk)
        attn = scores.softmax(dim=-1)
        out = self.out_proj(torch.einsum("bhij,jbhd->ibhd", attn, v).reshape(T, B, d))
        out = nn.functional.dropout(out, self.p)  # BUG: dropout-eval
        return self.norm(x + out)


def build():
    torch.manual_seed(0)
    model = SeqFirstBlock().eval()
    x = torch.randn(5, 2, 16)
    return model, (x,)
