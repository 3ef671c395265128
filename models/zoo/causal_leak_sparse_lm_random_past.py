"""A sparse language model whose mask keeps a window, two global tokens and two random keys per row, cut to the past with `tril(diagonal=1)`: off by one, every token also sees the next.

Fix: `allowed & ones(T, T, dtype=torch.bool).tril()`, which keeps j <= i. Twin of
ok_bigbird_encoder_random_keys: the same pattern, with the direction that makes it causal.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("causal-leak",)


def sparse_pattern(size: int, window: int = 2, n_global: int = 2, n_random: int = 2) -> torch.Tensor:
    g = torch.Generator().manual_seed(0)
    i, j = torch.arange(size)[:, None], torch.arange(size)[None, :]
    allowed = ((i - j).abs() <= window) | (i < n_global) | (j < n_global)
    for row in range(size):
        allowed[row, torch.randperm(size, generator=g)[:n_random]] = True
    return allowed


class SparseLM(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2, max_len: int = 16):
        super().__init__()
        self.n_heads = n_heads
        self.embed, self.pos = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.head = nn.Linear(d_model, vocab)
        self.register_buffer("pattern", sparse_pattern(max_len), persistent=False)

    def forward(self, ids):
        B, T = ids.shape
        x = self.embed(ids) + self.pos(torch.arange(T))
        q, k, v = (t.view(B, T, self.n_heads, -1).transpose(1, 2) for t in self.qkv(x).chunk(3, dim=-1))
        past = torch.ones(T, T, dtype=torch.bool).tril(diagonal=1)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=self.pattern[:T, :T] & past)  # BUG: causal-leak
        return self.head(x + self.proj(y.transpose(1, 2).reshape(B, T, -1)))


def build():
    torch.manual_seed(0)
    return SparseLM().eval(), (torch.randint(0, 40, (3, 12)),)
