"""TAPAS-style encoder for table question answering.

The question and the flattened table are one sequence. Table tokens get row and column index
embeddings (0 for question tokens) and a rank embedding for numeric columns; a cell-selection
head scores every token.
"""
import math

import torch
import torch.nn as nn


class TableEmbeddings(nn.Module):
    def __init__(self, vocab, dim, max_rows=16, max_cols=8, max_rank=16, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.segment = nn.Embedding(2, dim)
        self.row = nn.Embedding(max_rows, dim)
        self.col = nn.Embedding(max_cols, dim)
        self.rank = nn.Embedding(max_rank, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids, segment_ids, row_ids, col_ids, rank_ids):
        pos = torch.arange(ids.size(1), device=ids.device)
        e = self.tok(ids) + self.pos(pos) + self.segment(segment_ids)
        e = e + self.row(row_ids) + self.col(col_ids) + self.rank(rank_ids)
        return self.norm(e)


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.query, self.key, self.value = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.dense = nn.Linear(dim, dim)

    def split(self, t):
        B, T, D = t.shape
        return t.view(B, T, self.h, D // self.h).transpose(1, 2)

    def forward(self, x, attention_mask):
        B, T, D = x.shape
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(D // self.h)
        pad = attention_mask.eq(0)[:, None, :, None]
        scores = scores.masked_fill(pad, -1e9)
        probs = scores.softmax(dim=-1)
        return self.dense((probs @ v).transpose(1, 2).reshape(B, T, D))


class TableQAEncoder(nn.Module):
    def __init__(self, vocab=150, dim=48, heads=4, depth=2):
        super().__init__()
        self.emb = TableEmbeddings(vocab, dim)
        self.attn = nn.ModuleList([Attention(dim, heads) for _ in range(depth)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.ln = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.cell_select = nn.Linear(dim, 1)

    def forward(self, input_ids, attention_mask, segment_ids, row_ids, col_ids, rank_ids):
        x = self.emb(input_ids, segment_ids, row_ids, col_ids, rank_ids)
        for i in range(len(self.attn)):
            x = self.ln[2 * i](x + self.attn[i](x, attention_mask))
            x = self.ln[2 * i + 1](x + self.ffn[i](x))
        return self.cell_select(x).squeeze(-1)


def toy_batch(B=3, q_len=5, rows=3, cols=3, pad_to=16):
    ids = torch.zeros(B, pad_to, dtype=torch.long)
    seg, row, col, rank = (torch.zeros_like(ids) for _ in range(4))
    mask = torch.zeros_like(ids)
    for b in range(B):
        n_rows = rows - (b % 2)
        n = q_len + n_rows * cols
        ids[b, :n] = torch.randint(1, 150, (n,))
        mask[b, :n] = 1
        seg[b, q_len:n] = 1
        cells = torch.arange(n_rows * cols)
        row[b, q_len:n] = cells // cols + 1
        col[b, q_len:n] = cells % cols + 1
        rank[b, q_len:n] = torch.randint(0, 4, (n_rows * cols,))
    return ids, mask, seg, row, col, rank


def build():
    torch.manual_seed(0)
    model = TableQAEncoder().eval()
    return model, toy_batch()
