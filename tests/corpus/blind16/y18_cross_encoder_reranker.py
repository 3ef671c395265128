"""Passage re-ranker: a cross-encoder over `[CLS] query [SEP] passage [SEP]` pairs.

Pairs are right-padded within a batch; `pair_mask` is 1 on real tokens. The relevance score is a
linear read-out of the [CLS] state.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PairSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.in_proj = nn.Linear(dim, 3 * dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x, pair_mask):
        B, T, D = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, T, self.heads, -1).permute(0, 2, 1, 3) for t in (q, k, v))
        scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(q.size(-1))
        scores = scores * pair_mask[:, None, None, :]
        attn = F.softmax(scores, dim=-1)
        ctx = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.out_proj(ctx.permute(0, 2, 1, 3).reshape(B, T, D))


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = PairSelfAttention(dim, heads)
        self.ln1 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.ln2 = nn.LayerNorm(dim)

    def forward(self, x, pair_mask):
        x = self.ln1(x + self.attn(x, pair_mask))
        return self.ln2(x + self.ff(x))


class CrossEncoderReranker(nn.Module):
    def __init__(self, vocab=150, dim=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.seg = nn.Embedding(2, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.emb_ln = nn.LayerNorm(dim)
        self.layers = nn.ModuleList([EncoderLayer(dim, heads) for _ in range(layers)])
        self.score = nn.Linear(dim, 1)

    def forward(self, input_ids, segment_ids, pair_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.emb_ln(self.tok(input_ids) + self.seg(segment_ids) + self.pos(pos))
        m = pair_mask.to(x.dtype)
        for layer in self.layers:
            x = layer(x, m)
        return self.score(x[:, 0]).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = CrossEncoderReranker().eval()
    q_len = torch.tensor([5, 4, 6, 3])
    total = torch.tensor([20, 14, 17, 9])
    pos = torch.arange(20)[None, :]
    pair_mask = (pos < total[:, None]).long()
    segment_ids = ((pos >= q_len[:, None]) & (pair_mask == 1)).long()
    input_ids = torch.randint(3, 150, (4, 20)).masked_fill(pair_mask == 0, 0)
    return model, (input_ids, segment_ids, pair_mask)
