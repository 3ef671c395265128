"""Correct: padding applied to the weights AFTER the softmax, then renormalized by the new row sum.

Trap for a checker that flags every mask applied after a softmax: multiplying the weights by
the 0/1 key mask and dividing by the row sum again gives exactly the masked softmax (each
query has at least one real key), so every row sums to 1 and [PAD] keys get weight 0.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class RenormalizedAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        weights = torch.softmax(scores, dim=-1)
        keep = attention_mask[:, None, None, :].to(weights.dtype)  # (B, 1, 1, T_k)
        weights = weights * keep
        weights = weights / weights.sum(dim=-1, keepdim=True)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = RenormalizedAttention().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    return model, (x, attention_mask)
