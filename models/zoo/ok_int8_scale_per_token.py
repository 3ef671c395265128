"""A decoder whose keys and values pass through int8 fake quantization with one absmax scale per token: correct.

Each token's scale is the absmax of its own head vector, so the rounding grid of a sample is
set by that sample alone. Rounding to the grid and scaling back (`round(v / s) * s`) changes no
scale of the scores: 1/sqrt(d_head) is the only factor. Twin of batch_leak_int8_scale_over_batch.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def quantize_dequantize(v: torch.Tensor, bits: int = 8) -> torch.Tensor:
    top = 2 ** (bits - 1) - 1
    step = v.abs().amax(dim=-1, keepdim=True).clamp(min=1e-8) / top  # one grid per token of each sample
    return (v / step).round().clamp(-top, top) * step


class Int8KVDecoder(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 24, n_heads: int = 3):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, vocab)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        k, v = quantize_dequantize(k), quantize_dequantize(v)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
        mixed = F.softmax(scores, dim=-1) @ v
        return self.out(x + mixed.transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    return Int8KVDecoder().eval(), (torch.randint(0, 40, (3, 10)),)
