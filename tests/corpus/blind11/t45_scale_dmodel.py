"""Hand-rolled multi-head attention module meant as a drop-in for nn.MultiheadAttention (batch-first)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, key_padding_mask=None):
        B, T, _ = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        attn = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(self.embed_dim)
        if key_padding_mask is not None:
            attn = attn.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        attn = F.softmax(attn, dim=-1)
        out = torch.einsum("bhqk,bhkd->bhqd", attn, v).transpose(1, 2).reshape(B, T, self.embed_dim)
        return self.out_proj(out)


class Tagger(nn.Module):
    def __init__(self, vocab=60, dim=64, heads=4, n_tags=7):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(24, dim)
        self.attn = MultiHeadAttention(dim, heads)
        self.norm = nn.LayerNorm(dim)
        self.tags = nn.Linear(dim, n_tags)

    def forward(self, ids, pad_mask):
        x = self.emb(ids) * 4 + self.pos(torch.arange(ids.size(1)))
        return self.tags(self.norm(x + self.attn(x, key_padding_mask=pad_mask)))


def build():
    torch.manual_seed(0)
    pad_mask = torch.arange(10)[None] >= torch.tensor([10, 7, 5])[:, None]
    ids = torch.randint(1, 60, (3, 10)).masked_fill(pad_mask, 0)
    return Tagger().eval(), (ids, pad_mask)
