"""Causal mask registered in `__init__` as `tril(ones, diagonal=-1)`: the buffer hides the diagonal, query t cannot see key t.

GPT-style attention keeps its causal mask as a buffer built once in `__init__`. A keep-mask
needs `diagonal=0`; with `diagonal=-1` each query loses its own key, and query 0 has no key
at all. The masked_fill line in `forward` is where the wrong mask is used; the `tril` line in
`__init__` is where it was built. Fix: `torch.tril(torch.ones(block_size, block_size))`.
Secondary: row 0 sees no key -> ALSO = ("fully-masked-row", "nan").
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ("causal-diagonal",)
ALSO: tuple[str, ...] = ("fully-masked-row", "nan")


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int = 16, n_head: int = 2, block_size: int = 16):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        mask = torch.tril(torch.ones(block_size, block_size), diagonal=-1)
        self.register_buffer("mask", mask.view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))  # BUG: causal-diagonal
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def build():
    torch.manual_seed(0)
    model = CausalSelfAttention().eval()
    return model, (torch.randn(2, 6, 16),)
