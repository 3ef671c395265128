"""Padding mask from `input_ids == PAD` where PAD is also the BOS id: the real first token's row is fully masked.

GPT-2 style: the student reuses the begin-of-sequence id as the padding id. The key padding
mask `input_ids == PAD` then hides the BOS token at position 0 as well as the trailing pads,
and combined with the causal mask, query 0 (a real token, which may only read key 0) has
every key masked: its scores are all -inf and its weights NaN. Fix: build the padding mask
from the tokenizer's attention_mask (or give padding its own id).
Secondary: the NaN weights of that row -> ALSO = ("nan",).
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("fully-masked-row",)
ALSO: tuple[str, ...] = ("nan",)

BOS = PAD = 0


class TinyDecoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        B, T, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        pad = (input_ids == PAD)[:, None, None, :]  # also True at the BOS token
        hide = future | pad  # (B, 1, T_q, T_k)
        scores = scores.masked_fill(hide, float("-inf"))  # BUG: fully-masked-row
        weights = torch.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(B, T, d)
        return self.proj(out)


def build():
    torch.manual_seed(0)
    model = TinyDecoder().eval()
    # each row starts with BOS (id 0); the second is right-padded with PAD (also id 0)
    input_ids = torch.tensor([[BOS, 5, 9, 3, 7, 2], [BOS, 4, 8, 6, PAD, PAD]])
    return model, (input_ids,)
