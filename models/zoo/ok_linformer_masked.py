"""A Linformer encoder layer that zeroes the padded positions of both keys and values before projecting the sequence down to k slots: correct.

Linformer compresses the sequence axis with learned maps, `E @ K` and `F @ V` (T -> k
slots), so every slot sums over all T positions, padded ones included, and no mask on the
T x k scores can hide them afterwards. Multiplying keys AND values by the padding mask first
leaves each slot a sum over real positions only, so what padded positions hold never reaches
a real token's output.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class LinformerLayer(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, seq_len: int = 10, slots: int = 4):
        super().__init__()
        self.h = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.E = nn.Linear(seq_len, slots, bias=False)   # keys: T -> slots
        self.F = nn.Linear(seq_len, slots, bias=False)   # values: T -> slots
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        keep = attention_mask[:, :, None].to(x.dtype)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k, v = k * keep, v * keep
        k = self.E(k.transpose(1, 2)).transpose(1, 2)          # (B, slots, C)
        v = self.F(v.transpose(1, 2)).transpose(1, 2)          # (B, slots, C)
        q = q.view(B, T, self.h, -1).transpose(1, 2)
        k, v = (t.view(B, -1, self.h, C // self.h).transpose(1, 2) for t in (k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(C // self.h)
        y = (scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C)
        return x + self.out(y)


def build():
    torch.manual_seed(0)
    attention_mask = torch.ones(3, 10, dtype=torch.long)
    attention_mask[1, 7:] = 0
    attention_mask[2, 4:] = 0
    x = torch.randn(3, 10, 16)
    return LinformerLayer().eval(), (x, attention_mask)
