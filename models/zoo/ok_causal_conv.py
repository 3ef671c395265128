"""A causal language model with a short depthwise convolution padded on the left only (Mamba/Hyena style): correct.

Twin of causal_leak_conv_no_causal_padding: `F.pad(x, (2, 0))` before a kernel-3 conv
without padding, so position t reads tokens t - 2 .. t.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class ConvThenAttention(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.conv = nn.Conv1d(d_model, d_model, kernel_size=3, groups=d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        x = x + self.conv(F.pad(x.transpose(1, 2), (2, 0))).transpose(1, 2)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        T = ids.shape[1]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        scores = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~causal, float("-inf"))
        return self.head(x + F.softmax(scores, dim=-1) @ v)


def build():
    torch.manual_seed(0)
    model = ConvThenAttention().eval()
    return model, (torch.randint(0, 30, (2, 8)),)
