"""Correct: multi-head cross-attention with T_q = 4 decoder queries and T_k = 7 encoder keys, with memory padding.

Trap for a checker that expects square score tables or matches axes by size: the table is
(B, H, 4, 7), the softmax runs over the 7 keys, and the memory padding mask (B, 1, 1, 7)
varies over the key axis.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class CrossAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.kv_proj = nn.Linear(d_model, 2 * d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, tgt, memory, memory_mask):  # memory_mask: (B, T_k), 1 = real
        B, Tq, d = tgt.shape
        Tk = memory.size(1)
        q = self.q_proj(tgt).view(B, Tq, self.n_heads, self.d_k).transpose(1, 2)
        k, v = self.kv_proj(memory).view(B, Tk, 2, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)  # (B, H, Tq, Tk)
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, Tq, d)
        return tgt + self.o_proj(out)


def build():
    torch.manual_seed(0)
    model = CrossAttention().eval()
    tgt = torch.randn(2, 4, 16)
    memory = torch.randn(2, 7, 16)
    memory_mask = torch.tensor([[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 0, 0]])
    return model, (tgt, memory, memory_mask)
