"""SAINT (Somepalli et al., 2021) for tabular data: self-attention over the columns of a row,
then intersample attention over the rows of the batch.

Intersample attention is the method's point: each row's representation is refined by
attending to the other rows of the batch (a learned nearest-neighbour step), computed on the
concatenation of all of a row's column embeddings.
"""
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads, dim_head):
        super().__init__()
        inner = heads * dim_head
        self.heads, self.scale = heads, dim_head ** -0.5
        self.to_qkv = nn.Linear(dim, inner * 3, bias=False)
        self.to_out = nn.Linear(inner, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(b, n, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        sim = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        attn = sim.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(out.transpose(1, 2).reshape(b, n, -1))


class SAINTBlock(nn.Module):
    def __init__(self, n_cols, dim, heads=4):
        super().__init__()
        self.col_norm = nn.LayerNorm(dim)
        self.col_attn = Attention(dim, heads, dim // heads)
        self.col_ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        row_dim = n_cols * dim
        self.row_norm = nn.LayerNorm(row_dim)
        self.row_attn = Attention(row_dim, heads, 16)
        self.row_ff = nn.Sequential(nn.LayerNorm(row_dim), nn.Linear(row_dim, row_dim), nn.GELU(), nn.Linear(row_dim, row_dim))

    def forward(self, x):
        b, n, d = x.shape
        x = x + self.col_attn(self.col_norm(x))
        x = x + self.col_ff(x)
        rows = x.reshape(1, b, n * d)            # the batch becomes the sequence
        rows = rows + self.row_attn(self.row_norm(rows))
        rows = rows + self.row_ff(rows)
        return rows.reshape(b, n, d)


class SAINT(nn.Module):
    def __init__(self, cat_cardinalities=(4, 7, 3), n_cont=3, dim=8, depth=2, n_classes=2):
        super().__init__()
        n_cols = 1 + len(cat_cardinalities) + n_cont
        offsets = torch.tensor((0,) + tuple(cat_cardinalities[:-1])).cumsum(0)
        self.register_buffer("offsets", offsets)
        self.cls = nn.Parameter(torch.randn(1, 1, dim))
        self.cat_emb = nn.Embedding(sum(cat_cardinalities), dim)
        self.cont_emb = nn.ModuleList([nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, dim)) for _ in range(n_cont)])
        self.blocks = nn.ModuleList([SAINTBlock(n_cols, dim) for _ in range(depth)])
        self.head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, n_classes))

    def forward(self, x_cat, x_cont):
        b = x_cat.size(0)
        cat = self.cat_emb(x_cat + self.offsets)
        cont = torch.stack([mlp(x_cont[:, i:i + 1]) for i, mlp in enumerate(self.cont_emb)], dim=1)
        x = torch.cat([self.cls.expand(b, -1, -1), cat, cont], dim=1)
        for blk in self.blocks:
            x = blk(x)
        return self.head(x[:, 0])


def build():
    torch.manual_seed(27)
    model = SAINT().eval()
    x_cat = torch.stack([torch.randint(0, c, (3,)) for c in (4, 7, 3)], dim=1)
    x_cont = torch.randn(3, 3)
    return model, (x_cat, x_cont)
