"""Structure-aware table encoder with a TURL/TableFormer-like visibility matrix.

Question tokens see the whole input. A cell token sees the question and the tokens of its own
row and its own column; cells in other rows and columns are invisible. The visibility matrix is
passed to SDPA as a boolean mask (True = may attend).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def visibility(row_ids, col_ids, attention_mask):
    """row/col ids are 0 for question tokens; returns (B, 1, T, T) bool, True = visible."""
    is_q = row_ids.eq(0)
    same_row = row_ids[:, :, None] == row_ids[:, None, :]
    same_col = col_ids[:, :, None] == col_ids[:, None, :]
    vis = is_q[:, :, None] | is_q[:, None, :] | same_row | same_col
    real = attention_mask.bool()
    vis = vis & real[:, None, :]
    # padded queries keep their own diagonal so that no row of the softmax is empty
    eye = torch.eye(row_ids.size(1), dtype=torch.bool, device=row_ids.device)
    vis = vis | (eye & ~real[:, :, None])
    return vis.unsqueeze(1)


class VisibilityEncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.in_proj = nn.Linear(d, 3 * d)
        self.out_proj = nn.Linear(d, d)
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x, vis):
        B, T, D = x.shape
        qkv = self.in_proj(self.n1(x)).reshape(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(qkv[0], qkv[1], qkv[2], attn_mask=vis)
        x = x + self.out_proj(y.transpose(1, 2).flatten(2))
        return x + self.ff(self.n2(x))


class StructuredTableEncoder(nn.Module):
    def __init__(self, vocab=150, d=32, heads=4, depth=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.row = nn.Embedding(16, d)
        self.col = nn.Embedding(8, d)
        self.layers = nn.ModuleList([VisibilityEncoderLayer(d, heads) for _ in range(depth)])
        self.answer = nn.Linear(d, 1)

    def forward(self, input_ids, attention_mask, row_ids, col_ids):
        vis = visibility(row_ids, col_ids, attention_mask)
        x = self.tok(input_ids) + self.row(row_ids) + self.col(col_ids)
        for layer in self.layers:
            x = layer(x, vis)
        return self.answer(x).squeeze(-1)


def build():
    torch.manual_seed(0)
    B, T, q = 3, 18, 4
    ids = torch.randint(1, 150, (B, T))
    mask = torch.ones(B, T, dtype=torch.long)
    row = torch.zeros(B, T, dtype=torch.long)
    col = torch.zeros(B, T, dtype=torch.long)
    for b, n_rows in enumerate([4, 3, 2]):
        n = q + n_rows * 3
        cells = torch.arange(n_rows * 3)
        row[b, q:n], col[b, q:n] = cells // 3 + 1, cells % 3 + 1
        mask[b, n:] = 0
    model = StructuredTableEncoder().eval()
    return model, (ids, mask, row, col)
