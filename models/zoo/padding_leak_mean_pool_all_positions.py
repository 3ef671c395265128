"""A padded classifier that mean-pools over every position, padding included: the class scores depend on the filler.

The attention hides the padded keys correctly, but `h.mean(1)` averages the padded
positions in too, so a sentence's prediction changes with what its padding holds (and with
how much of it there is). Fix: `(h * keep[..., None]).sum(1) / keep.sum(1, keepdim=True)`.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("padding-leak",)


class MeanPooled(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, classes: int = 4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, classes)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(attention_mask[:, None, :] == 0, float("-inf"))
        h = h + F.softmax(scores, dim=-1) @ v
        return self.head(h.mean(1))  # BUG: padding-leak


def build():
    torch.manual_seed(0)
    model = MeanPooled().eval()
    ids = torch.randint(1, 40, (2, 6))
    mask = torch.tensor([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]])
    return model, (ids * mask, mask)
