"""A prefix-LM whose prefix length differs per sample (bidirectional over each sample's own prompt, causal after it): correct.

The causal witness must cut after the longest prefix of the batch: before it, a query of
the sample with the longer prompt may read later prompt tokens by design.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class PrefixLM(nn.Module):
    def __init__(self, vocab: int = 32, d_model: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, prompt_lengths):
        T = ids.shape[1]
        i = torch.arange(T)[:, None]
        j = torch.arange(T)[None, :]
        visible = (j <= i)[None] | (j[None] < prompt_lengths[:, None, None])  # (B, T, T)
        x = self.embed(ids)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~visible, float("-inf"))
        return self.head(x + F.softmax(scores, dim=-1) @ v)


def build():
    torch.manual_seed(0)
    model = PrefixLM().eval()
    return model, (torch.randint(0, 32, (2, 9)), torch.tensor([2, 6]))
