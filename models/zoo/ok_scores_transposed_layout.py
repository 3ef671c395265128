"""Correct: scores laid out (B, T_k, T_q) as `k @ q^T`, softmax over dim 1 (the key axis), transposed back.

Trap for a checker that assumes the key axis is always the last one: here dim=1 IS the key
axis, and the weights are transposed to (B, T_q, T_k) before the product with the values.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class KeyMajorAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.d_k = d_model
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)
        scores_kq = torch.bmm(k, q.transpose(1, 2)) / math.sqrt(self.d_k)  # (B, T_k, T_q)
        weights_kq = torch.softmax(scores_kq, dim=1)  # normalize over keys
        weights = weights_kq.transpose(1, 2)  # (B, T_q, T_k)
        return torch.bmm(weights, v)


def build():
    torch.manual_seed(0)
    model = KeyMajorAttention().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
