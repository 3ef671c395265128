"""A table encoder whose cells see the question and their own row and column, padded queries kept on their own diagonal: correct.

Among the real positions the visibility is symmetric (a cell sees the cells of its column below
it as they see it), so it orders nothing: no causal witness belongs to it. A padded query sees
only itself, so that no softmax row is empty; that one-sided entry says nothing about direction.
Twin of causal_leak_padded_diagonal_decoder.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def cell_visibility(rows: torch.Tensor, cols: torch.Tensor, real: torch.Tensor) -> torch.Tensor:
    question = rows.eq(0)
    seen = question[:, :, None] | question[:, None, :] | (rows[:, :, None] == rows[:, None, :]) \
        | (cols[:, :, None] == cols[:, None, :])
    seen = seen & real[:, None, :]
    own = torch.eye(rows.shape[1], dtype=torch.bool)
    return (seen | (own & ~real[:, :, None]))[:, None]


class CellEncoder(nn.Module):
    def __init__(self, vocab: int = 60, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.score = nn.Linear(d_model, 1)

    def forward(self, ids, rows, cols, real):
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        mixed = F.scaled_dot_product_attention(q, k, v, attn_mask=cell_visibility(rows, cols, real))
        return self.score(x + mixed.transpose(1, 2).reshape(B, T, -1)).squeeze(-1)


def build():
    torch.manual_seed(0)
    ids = torch.randint(1, 60, (2, 12))
    rows = torch.tensor([[0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 0], [0, 0, 0, 1, 1, 2, 2, 0, 0, 0, 0, 0]])
    cols = torch.tensor([[0, 0, 1, 2, 3, 1, 2, 3, 1, 2, 3, 0], [0, 0, 0, 1, 2, 1, 2, 0, 0, 0, 0, 0]])
    real = torch.ones(2, 12, dtype=torch.bool)
    real[0, 11:] = False
    real[1, 7:] = False
    return CellEncoder().eval(), (ids, rows, cols, real)
