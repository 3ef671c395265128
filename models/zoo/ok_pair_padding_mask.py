"""Correct: a symmetric pair padding mask (query valid AND key valid), the way DeBERTa and many repositories build it.

Trap for a checker that reads any mask varying along both the queries and the keys as causal:
`valid[:, None, :, None] & valid[:, None, None, :]` hides the padded keys from every query
and the padded queries' whole rows. The fill is `finfo.min`, so the padded rows stay finite.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class PairMaskedAttention(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, input_ids, valid):
        x = self.embed(input_ids)
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d_head)
        pair = valid[:, None, :, None] & valid[:, None, None, :]  # (B, 1, T, T)
        scores = scores.masked_fill(~pair, torch.finfo(scores.dtype).min)
        probs = scores.softmax(dim=-1)
        out = (probs @ v).transpose(1, 2).reshape(B, T, d)
        return self.proj(out)


def build():
    torch.manual_seed(0)
    model = PairMaskedAttention().eval()
    input_ids = torch.tensor([[4, 9, 2, 7, 5, 3], [6, 8, 1, 0, 0, 0]])
    valid = input_ids != 0
    return model, (input_ids, valid)
