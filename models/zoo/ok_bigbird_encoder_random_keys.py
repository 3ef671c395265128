"""A Big Bird style encoder whose mask lets each token see a window around it, two global tokens, and two random keys anywhere: correct.

The mask has no direction: a token reads keys before and after it, near and far. A few rows
(those whose random keys fall inside the window) look like a staircase that reaches two keys
ahead, but the other rows see keys much further ahead: it is no causal mask, right or
wrong. Twin of causal_leak_sparse_lm_random_past.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


def sparse_pattern(size: int, window: int = 2, n_global: int = 2, n_random: int = 2) -> torch.Tensor:
    g = torch.Generator().manual_seed(0)
    i, j = torch.arange(size)[:, None], torch.arange(size)[None, :]
    allowed = ((i - j).abs() <= window) | (i < n_global) | (j < n_global)
    for row in range(size):
        allowed[row, torch.randperm(size, generator=g)[:n_random]] = True
    return allowed


class SparseEncoder(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2, n_tags: int = 5, max_len: int = 16):
        super().__init__()
        self.n_heads = n_heads
        self.embed, self.pos = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.tags = nn.Linear(d_model, n_tags)
        self.register_buffer("pattern", sparse_pattern(max_len), persistent=False)

    def forward(self, ids):
        B, T = ids.shape
        x = self.embed(ids) + self.pos(torch.arange(T))
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=self.pattern[:T, :T])
        return self.tags(x + self.proj(y.transpose(1, 2).reshape(B, T, -1)))


def build():
    torch.manual_seed(0)
    return SparseEncoder().eval(), (torch.randint(0, 40, (3, 12)),)
