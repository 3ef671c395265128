"""E-commerce query-product relevance (ESCI: exact / substitute / complement / irrelevant).

Query and product title are encoded by a shared encoder, then every query token attends to the
title tokens; the query-side interaction features are mean-pooled and classified. Inputs come
from a HF tokenizer: ids plus 0/1 attention masks, right-padded.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QueryTitleInteraction(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, query, title, title_mask):
        B, Tq, D = query.shape
        Tt = title.size(1)
        q = self.q(query).view(B, Tq, self.heads, self.dh).transpose(1, 2)
        k, v = self.kv(title).view(B, Tt, 2, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        scores = scores.masked_fill(~title_mask.bool()[:, None, None, :], torch.finfo(scores.dtype).tiny)
        attn = scores.softmax(dim=-1)
        ctx = (attn @ v).transpose(1, 2).reshape(B, Tq, D)
        return self.out(ctx)


class RelevanceModel(nn.Module):
    def __init__(self, vocab=300, dim=32, heads=4, n_labels=4, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, 0.1, batch_first=True), 1, enable_nested_tensor=False)
        self.interact = QueryTitleInteraction(dim, heads)
        self.cls = nn.Sequential(nn.Linear(3 * dim, dim), nn.ReLU(), nn.Linear(dim, n_labels))

    def encode(self, ids, mask):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        return self.encoder(x, src_key_padding_mask=mask == 0)

    def forward(self, query_ids, query_mask, title_ids, title_mask):
        qh = self.encode(query_ids, query_mask)
        th = self.encode(title_ids, title_mask)
        inter = self.interact(qh, th, title_mask)
        w = query_mask.unsqueeze(-1).float()
        pool = lambda h: (h * w).sum(1) / w.sum(1)
        feats = torch.cat([pool(qh), pool(inter), pool(qh * inter)], dim=-1)
        return self.cls(feats)


def build():
    torch.manual_seed(0)
    model = RelevanceModel().eval()
    q_len, t_len = torch.tensor([4, 7, 3]), torch.tensor([18, 11, 14])
    query_mask = (torch.arange(7)[None] < q_len[:, None]).long()
    title_mask = (torch.arange(18)[None] < t_len[:, None]).long()
    query_ids = torch.randint(1, 300, (3, 7)) * query_mask
    title_ids = torch.randint(1, 300, (3, 18)) * title_mask
    return model, (query_ids, query_mask, title_ids, title_mask)
