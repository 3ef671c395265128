"""Attention entropy `-(w * w.log()).sum(-1)` on causal weights that are exactly 0: 0 * log(0) = NaN.

The causal mask makes the weights of future keys exactly 0 (that part is right). The
entropy diagnostic then takes their log, which is -inf, and multiplies by the weight 0,
which is NaN; the entropy returned next to the output is NaN for every row but the last.
Fix: `torch.special.entr(w).sum(-1)` or `torch.xlogy(w, w)`, which define 0 * log 0 = 0.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("nan",)


class CausalAttentionWithEntropy(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        w = scores.masked_fill(future, float("-inf")).softmax(dim=-1)
        entropy = -(w * w.log()).sum(dim=-1)  # BUG: nan
        out = self.out((w @ v).transpose(1, 2).reshape(B, T, d))
        return out, entropy.mean(dim=1)  # (B, T, d) and per-token entropy (B, T)


def build():
    torch.manual_seed(0)
    model = CausalAttentionWithEntropy().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
