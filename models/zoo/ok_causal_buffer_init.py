"""Correct: GPT-style causal self-attention whose mask is a `tril` buffer registered in `__init__` and cut to T.

Trap for a checker that only knows masks built in `forward`: the mask is made once, before
the forward pass (so no op of the trace builds it), and sliced `[:, :, :T, :T]` at each call.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ()


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int = 16, n_head: int = 2, block_size: int = 16):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def build():
    torch.manual_seed(0)
    model = CausalSelfAttention().eval()
    return model, (torch.randn(2, 6, 16),)
