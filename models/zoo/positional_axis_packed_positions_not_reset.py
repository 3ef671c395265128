"""Packed documents kept apart by their mask, but numbered by learned positions that run along the whole row: each document's outputs depend on the documents in front of it.

The document mask (`same_doc & causal`) keeps the documents from reading each other, but the
positions count from the start of the packed row, so the second document starts at position 5
instead of 0 and is read as if it came after 5 other tokens. Fix: restart the positions at each
document, `positions = (same_doc & causal).sum(-1) - 1`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("positional-axis",)


class DocumentAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, keep):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = (q @ k.transpose(1, 2) / math.sqrt(x.shape[-1])).masked_fill(~keep, float("-inf"))
        return scores.softmax(dim=-1) @ v


class PackedLM(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, max_len: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.attn = DocumentAttention(d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, doc_ids):
        B, T = ids.shape
        same_doc = doc_ids[:, :, None] == doc_ids[:, None, :]
        keep = same_doc & torch.ones(T, T, dtype=torch.bool).tril()
        positions = torch.arange(T).expand(B, T)  # BUG: positional-axis
        x = self.embed(ids) + self.pos(positions)
        return self.head(x + self.attn(x, keep))


def build():
    torch.manual_seed(0)
    doc_ids = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]])
    return PackedLM().eval(), (torch.randint(0, 30, (2, 10)), doc_ids)
