"""An encoder whose `attention_mask` is combined with `| True` (meant: `&` with another mask): it hides nothing, and every query attends to the padding.

The keep-mask (1 = real token) is OR-ed with True, so no key is ever hidden and what
padded positions hold moves the outputs at real positions. The batch given pads nothing, so
attnscope pads the last positions of one sample itself to show it. Fix:
`scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("padding-leak",)


class Encoder(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        x = self.embed(input_ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        keep = attention_mask[:, None, None, :].bool()
        scores = torch.where(keep | True, scores, float("-inf"))  # BUG: padding-leak
        y = (F.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, -1)
        return x + self.out(y)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    ids = torch.randint(1, 40, (2, 6))
    return model, (ids, torch.ones(2, 6, dtype=torch.long))
