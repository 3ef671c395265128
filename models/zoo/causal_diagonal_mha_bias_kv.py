"""A decoder layer on nn.MultiheadAttention with `add_bias_kv=True` whose boolean causal mask is `triu(ones)` without `diagonal=1`: every query is barred from its own key.

For nn.MultiheadAttention a True entry is hidden; `triu` keeps the main diagonal, so token t
reads only the tokens before it (and the appended bias slot, which keeps the first row from
being empty). Fix: `torch.triu(ones, diagonal=1)`. Twin of ok_mha_bias_kv_causal.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("causal-diagonal",)


class BiasSlotDecoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, n_heads: int = 2, max_len: int = 16):
        super().__init__()
        self.embed, self.pos = nn.Embedding(vocab, d_model), nn.Embedding(max_len, d_model)
        self.attn = nn.MultiheadAttention(d_model, n_heads, add_bias_kv=True, batch_first=True)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        T = ids.shape[1]
        x = self.embed(ids) + self.pos(torch.arange(T))
        hidden = torch.triu(torch.ones(T, T, dtype=torch.bool))
        return self.head(x + self.attn(x, x, x, attn_mask=hidden, need_weights=False)[0])  # BUG: causal-diagonal


def build():
    torch.manual_seed(0)
    return BiasSlotDecoder().eval(), (torch.randint(0, 30, (3, 7)),)
