"""A decoder layer on nn.MultiheadAttention with `add_bias_kv=True` (a learned key and value appended after the tokens' own) and the boolean causal mask `triu(ones, diagonal=1)` (True = hidden): correct.

The appended slot is a key no position owns, seen by every query; the tokens' keys are hidden
from the queries before them only. Twin of causal_diagonal_mha_bias_kv.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class BiasSlotDecoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2, max_len: int = 16):
        super().__init__()
        self.embed, self.pos = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, add_bias_kv=True, batch_first=True)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        T = ids.shape[1]
        hidden = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        x = self.embed(ids) + self.pos(torch.arange(T))
        return self.head(x + self.attn(x, x, x, attn_mask=hidden, need_weights=False)[0])


def build():
    torch.manual_seed(0)
    return BiasSlotDecoder().eval(), (torch.randint(0, 30, (3, 7)),)
