"""A padded decoder whose causal mask lets each query see the next token, padded queries kept on their own diagonal.

`tril(diagonal=1)` lets position t read position t + 1; the padding handled the way table encoders
do it (padded keys hidden, padded queries kept on their diagonal) must not hide that direction.
Fix: `tril()`. Twin of ok_cell_visibility_padded_diagonal.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("causal-leak",)


class PaddedDecoder(nn.Module):
    def __init__(self, vocab: int = 60, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids, real):
        B, T = ids.shape
        x = self.embed(ids)
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        causal = torch.ones(T, T, dtype=torch.bool).tril(diagonal=1)
        seen = (causal & real[:, None, :]) | (torch.eye(T, dtype=torch.bool) & ~real[:, :, None])
        mixed = F.scaled_dot_product_attention(q, k, v, attn_mask=seen[:, None])  # BUG: causal-leak
        return self.head(x + mixed.transpose(1, 2).reshape(B, T, -1))


def build():
    torch.manual_seed(0)
    real = torch.ones(2, 10, dtype=torch.bool)
    real[1, 7:] = False
    return PaddedDecoder().eval(), (torch.randint(1, 60, (2, 10)), real)
