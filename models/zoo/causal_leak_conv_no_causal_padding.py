"""A causal language model whose token-mixing depthwise convolution pads both sides: position t reads token t + 1.

The attention is causal, but the short convolution before it (Mamba/Hyena style) uses
`padding=1` with kernel 3, centred on the token, so every position sees the next one.
A causal convolution pads only on the left: `F.pad(x, (kernel - 1, 0))` and no padding in the
conv. Fix: `self.conv = nn.Conv1d(d, d, 3, groups=d)` after `F.pad(x, (2, 0))`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("causal-leak",)


class ConvThenAttention(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.conv = nn.Conv1d(d_model, d_model, kernel_size=3, padding=1, groups=d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        x = x + self.conv(x.transpose(1, 2)).transpose(1, 2)  # BUG: causal-leak
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        T = ids.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        scores = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~causal, float("-inf"))
        return self.head(x + F.softmax(scores, dim=-1) @ v)


def build():
    torch.manual_seed(0)
    model = ConvThenAttention().eval()
    return model, (torch.randint(0, 30, (2, 8)),)
