"""Learned position embedding indexed by `x.size(1)` on sequence-first input (T, B, d): positions run along the batch.

On (T, B, d) input `x.size(1)` is the batch size, so `self.pos(torch.arange(B))` is a (B, d)
table that broadcasts over the time axis: every token of sample b gets embedding b and the
positions of a sequence are indistinguishable. Fix: `self.pos(torch.arange(x.size(0)))[:, None, :]`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("positional-axis",)


class SeqFirstEncoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2, max_len: int = 32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=32, dropout=0.0)

    def forward(self, src):  # src: (T, B) token ids, sequence first
        x = self.tok(src)  # (T, B, d)
        x = x + self.pos(torch.arange(x.size(1)))  # BUG: positional-axis
        return self.layer(x)


def build():
    torch.manual_seed(0)
    model = SeqFirstEncoder().eval()
    src = torch.tensor([[3, 2], [7, 8], [1, 5], [9, 6], [4, 11]])  # (T=5, B=2)
    return model, (src,)
