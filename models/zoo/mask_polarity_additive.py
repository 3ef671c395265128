"""Additive mask built from the keep-mask instead of its complement: `attention_mask * -1e9` (1 = keep).

The HF recipe is `(1 - attention_mask) * -1e9`: 0 on real tokens, -1e9 on padding. Dropping
the `1 -` puts -1e9 on every REAL key and 0 on the padding, so each query reads only the
[PAD] keys. Fix: `(1.0 - attention_mask) * -1e9`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-polarity",)


class Attention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.W_qkv = nn.Linear(d_model, 3 * d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, d = x.shape
        q, k, v = self.W_qkv(x).chunk(3, dim=-1)
        q = q.reshape(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = k.reshape(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = v.reshape(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(self.d_k)
        bias = attention_mask[:, None, None, :].float() * -1e9
        scores = scores + bias  # BUG: mask-polarity
        weights = torch.softmax(scores, dim=-1)
        out = torch.einsum("bhqk,bhkd->bhqd", weights, v)
        return self.W_o(out.transpose(1, 2).reshape(B, T, d))


def build():
    torch.manual_seed(0)
    model = Attention().eval()
    x = torch.randn(2, 6, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1, 0], [1, 1, 1, 0, 0, 0]])
    return model, (x,), {"attention_mask": attention_mask}
