"""A padded encoder with a pair mask (query and key padding) and a softmax made stable by hand.

Padded queries have every key hidden (excused: they are padding), so their row maximum is
the fill value; subtracting the detached row maximum is no mask, even where it is that huge.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class StableEncoder(nn.Module):
    def __init__(self, vocab: int = 20, width: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, width, padding_idx=0)
        self.qkv = nn.Linear(width, 3 * width)

    def forward(self, ids):
        x = self.embed(ids)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        real = ids != 0
        pair = real[:, :, None] & real[:, None, :]
        sim = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~pair, -torch.finfo(q.dtype).max)
        sim = sim - sim.amax(dim=-1, keepdim=True).detach()
        weights = sim.softmax(dim=-1) * pair.any(-1, keepdim=True)
        return (x + weights @ v) * real[..., None]


def build():
    torch.manual_seed(0)
    ids = torch.randint(1, 20, (2, 6))
    ids[1, 4:] = 0
    return StableEncoder().eval(), (ids,)
