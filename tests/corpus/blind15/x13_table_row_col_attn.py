"""Table encoder with alternating row and column attention (TaBERT/TABBIE style) for cell
type tagging. Tables in a batch are padded to the same number of rows and columns.
"""
import torch
import torch.nn as nn


class AxisAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, key_pad):
        # x: (N, L, dim) one row or one column per entry; key_pad: (N, L), True = padding
        N, L, D = x.shape
        q, k, v = self.qkv(x).reshape(N, L, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        scores = torch.einsum("nhid,nhjd->nhij", q, k) / self.dh ** 0.5
        scores.masked_fill(key_pad[:, None, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        y = torch.einsum("nhij,nhjd->nhid", attn, v)
        return self.out(y.permute(0, 2, 1, 3).reshape(N, L, D))


class TableLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.row_norm, self.row_attn = nn.LayerNorm(dim), AxisAttention(dim, heads)
        self.col_norm, self.col_attn = nn.LayerNorm(dim), AxisAttention(dim, heads)
        self.ff_norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, row_mask, col_mask):
        B, R, C, D = x.shape
        row_pad = (~col_mask)[:, None, :].expand(B, R, C).reshape(B * R, C)
        h = self.row_attn(self.row_norm(x).reshape(B * R, C, D), row_pad)
        x = x + h.view(B, R, C, D)
        col_pad = (~row_mask)[:, None, :].expand(B, C, R).reshape(B * C, R)
        xt = self.col_norm(x).transpose(1, 2).reshape(B * C, R, D)
        x = x + self.col_attn(xt, col_pad).view(B, C, R, D).transpose(1, 2)
        return x + self.ff(self.ff_norm(x))


class TableTagger(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, depth=2, max_rows=16, max_cols=16, n_types=6):
        super().__init__()
        self.cell = nn.Embedding(vocab, dim)
        self.row_pos = nn.Embedding(max_rows, dim)
        self.col_pos = nn.Embedding(max_cols, dim)
        self.layers = nn.ModuleList(TableLayer(dim, heads) for _ in range(depth))
        self.head = nn.Linear(dim, n_types)

    def forward(self, cells, row_mask, col_mask):
        B, R, C = cells.shape
        x = self.cell(cells) + self.row_pos.weight[:R, None, :] + self.col_pos.weight[None, :C, :]
        for layer in self.layers:
            x = layer(x, row_mask, col_mask)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = TableTagger().eval()
    n_rows, n_cols = torch.tensor([5, 4, 2]), torch.tensor([6, 3, 5])
    row_mask = torch.arange(5)[None, :] < n_rows[:, None]
    col_mask = torch.arange(6)[None, :] < n_cols[:, None]
    cells = torch.randint(1, 50, (3, 5, 6)) * (row_mask[:, :, None] & col_mask[:, None, :])
    return model, (cells, row_mask, col_mask)
