"""Scores divided by d_k instead of sqrt(d_k) (einsum, 2 heads, d_k = 8).

The variance of q . k is d_k, so its standard deviation is sqrt(d_k); dividing by d_k = 8
instead of sqrt(8) shrinks the scores by a further sqrt(8) and makes the attention almost
uniform. Fix: `/ math.sqrt(d_k)` (or `* d_k ** -0.5`).
"""


import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("scale-factor",)


class EinsumAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, d = x.shape
        d_k = d // self.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, d_k).unbind(dim=2)  # each (B, T, H, d_k)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / d_k  # BUG: scale-factor
        weights = scores.softmax(dim=-1)
        ctx = torch.einsum("bhqk,bkhd->bqhd", weights, v).reshape(B, T, d)
        return self.out(ctx)


def build():
    torch.manual_seed(0)
    model = EinsumAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
