"""Correct: the annotated Transformer's target mask, built by a helper: `(tgt != pad).unsqueeze(-2) & subsequent`.

Trap for a checker that judges a combined mask as a whole: the padding part (B, 1, T) varies
over the keys and the causal part (T, T) over both; together they vary over everything, and
each part is right. The fill is -1e9, so the padded sample's rows stay finite.
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()
PAD = 0


def subsequent_mask(size: int) -> torch.Tensor:
    return torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.uint8) == 0


def make_std_mask(tgt: torch.Tensor, pad: int) -> torch.Tensor:
    tgt_mask = (tgt != pad).unsqueeze(-2)
    return tgt_mask & subsequent_mask(tgt.size(-1)).type_as(tgt_mask.data)


class DecoderSelfAttention(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, h: int = 2):
        super().__init__()
        self.h, self.d_k = h, d_model // h
        self.embed = nn.Embedding(vocab, d_model)
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])

    def forward(self, tgt):
        mask = make_std_mask(tgt, PAD).unsqueeze(1)
        x = self.embed(tgt)
        nbatches = x.size(0)
        query, key, value = [
            lin(t).view(nbatches, -1, self.h, self.d_k).transpose(1, 2)
            for lin, t in zip(self.linears, (x, x, x))
        ]
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        scores = scores.masked_fill(mask == 0, -1e9)
        p_attn = scores.softmax(dim=-1)
        out = torch.matmul(p_attn, value).transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](out)


def build():
    torch.manual_seed(0)
    model = DecoderSelfAttention().eval()
    tgt = torch.tensor([[2, 5, 9, 4, 7, 3], [6, 8, 3, PAD, PAD, PAD]])
    return model, (tgt,)
