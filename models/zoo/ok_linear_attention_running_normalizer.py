"""A causal linear-attention language model: numerator and normalizer are both running sums over time."""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class LinearAttentionLM(nn.Module):
    def __init__(self, vocab: int = 32, dim: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, dim)
        self.to_qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.embed(ids)
        b, t, d = x.shape
        q, k, v = self.to_qkv(x).reshape(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k = F.elu(q) + 1, F.elu(k) + 1
        state = torch.einsum("bhtd,bhte->bhtde", k, v).cumsum(dim=2)
        z = k.cumsum(dim=2)
        out = torch.einsum("bhtd,bhtde->bhte", q, state) / (q * z).sum(-1, keepdim=True)
        return self.head(x + self.proj(out.transpose(1, 2).reshape(b, t, d)))


def build():
    torch.manual_seed(0)
    return LinearAttentionLM().eval(), (torch.randint(0, 32, (2, 9)),)
