"""A packed language model told its documents by `doc_ids` and masking each query to its own document and the past: correct.

Pre-training rows pack several documents end to end (`doc_ids` numbers them, -1 is padding).
The positions restart at each document and the mask keeps every query inside its own document
(causal, and the same `doc_ids`): each document is read as if it were a sample of its own.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class PackedBlock(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, doc_ids):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.n_heads)
        keep = torch.ones(T, T, dtype=torch.bool).tril() & (doc_ids[:, :, None] == doc_ids[:, None, :])
        scores = scores.masked_fill(~keep[:, None], float("-inf"))
        return self.proj((scores.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, C))


class PackedLM(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, max_len: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.block = PackedBlock(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, doc_ids):
        T = ids.shape[1]
        same_doc = doc_ids[:, :, None] == doc_ids[:, None, :]
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        starts = (same_doc & causal).float().argmax(-1)  # the first position of each token's document
        positions = torch.arange(T) - starts
        x = self.embed(ids) + self.pos(positions)
        x = x + self.block(x, doc_ids)
        return self.head(x)


def build():
    torch.manual_seed(0)
    doc_ids = torch.tensor([[0, 0, 0, 1, 1, 1, 1, 2, 2, -1], [0, 0, 0, 0, 0, 1, 1, 1, 1, 1]])
    return PackedLM().eval(), (torch.randint(1, 40, (2, 10)), doc_ids)
