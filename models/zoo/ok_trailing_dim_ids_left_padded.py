"""A language model over ids shaped (B, T, 1), left-padded, whose pad queries (every key hidden) are given every key instead: correct.

OpenNMT-style: the ids carry a trailing feature dim, the padding comes from the embedding's
`padding_idx`, and a query row with no visible key is unmasked rather than left to turn NaN.
Those rows are padding: their outputs see the future, but no real position moves when
later tokens change.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()
PAD = 1


class PaddedLM(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.embed = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):                                   # (B, T, 1)
        words = ids[:, :, 0]
        B, T = words.shape
        x = self.embed(words)
        pad = words.eq(PAD).unsqueeze(1)                      # (B, 1, T), True = padding key
        future = ~torch.ones(T, T, dtype=torch.bool).tril()
        hidden = pad | future                                 # (B, T, T)
        hidden = hidden & ~hidden.all(dim=-1, keepdim=True)   # a row with no key gets every key
        q, k, v = self.qkv(x).split(x.shape[-1], dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_head)
        scores = scores.masked_fill(hidden[:, None], -1e18)
        y = (F.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, -1)
        return self.head(x + self.out(y))


def build():
    torch.manual_seed(0)
    ids = torch.randint(4, 40, (2, 7, 1))
    ids[1, :3] = PAD                                          # sample 1 is left-padded by 3
    return PaddedLM().eval(), (ids,)
