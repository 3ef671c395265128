"""A packed encoder whose first segment is shared context: every later segment reads it, none reads another.

Fact checking packs one claim and several evidence snippets in a row (`segment_ids`: 0 is the
claim, 1, 2, ... the snippets, -1 padding). The claim reads itself; each snippet reads itself and
the claim, so each (claim, snippet) pair is encoded as if alone. Changing the claim moves every
snippet by design; changing a snippet moves no other segment.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


def pair_mask(segment_ids):
    """(B, T, T), True = attend: a segment reads itself, a snippet also reads the claim."""
    query, key = segment_ids[:, :, None], segment_ids[:, None, :]
    same = (query == key) & (query >= 0)
    to_claim = (key == 0) & (query > 0)
    padding_self = torch.eye(segment_ids.shape[1], dtype=torch.bool)[None] & (query < 0)
    return same | to_claim | padding_self


class PairEncoder(nn.Module):
    def __init__(self, vocab: int = 50, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, ids, segment_ids):
        x = self.embed(ids)
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.n_heads)
        scores = scores.masked_fill(~pair_mask(segment_ids)[:, None], float("-inf"))
        return x + self.proj((scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C))


def build():
    torch.manual_seed(0)
    segment_ids = torch.tensor([[0, 0, 0, 1, 1, 1, 2, 2, 3, -1], [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]])
    return PairEncoder().eval(), (torch.randint(1, 50, (2, 10)), segment_ids)
