"""Correct: a decoder-only batch with LEFT padding (pad id 1), causal AND key padding, `finfo.min` fill.

Trap for a checker that expects padding at the end: the short sequence is padded at the
start, as batched generation does. Its padded query rows see no real key (they are padding
themselves); every real query sees itself and the real keys before it.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()
PAD = 1


class LeftPaddedLM(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.wte = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)

    def forward(self, idx):
        x = self.wte(idx)
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        causal = torch.tril(torch.ones(T, T, dtype=torch.bool))
        real = idx != PAD
        allowed = causal[None, None] & real[:, None, None, :]
        att = att.masked_fill(~allowed, torch.finfo(att.dtype).min)
        att = att.softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def build():
    torch.manual_seed(0)
    model = LeftPaddedLM().eval()
    idx = torch.tensor([[PAD, PAD, 4, 9, 2, 7], [3, 8, 5, 0, 6, 2]])
    return model, (idx,)
