"""A padded masked-LM encoder with an embedding tied to its vocabulary head, whose key padding mask is inverted.

`src_key_padding_mask` wants True at the padding; `ids.ne(pad)` is True at the real tokens, so
every real token is hidden and the padding is attended. The pad row of the tied weight cannot be
redrawn without moving the vocabulary head too, so no padding witness runs: the mask's own
pattern against the pad id convicts it. Fix: `ids.eq(self.pad)`. Twin of ok_tied_embedding_padding.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-polarity",)


class TiedMLM(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2, pad: int = 1):
        super().__init__()
        self.pad = pad
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad)
        self.layer = nn.TransformerEncoderLayer(d_model, n_heads, 32, dropout=0.0, batch_first=True)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        x = self.embed(ids) * math.sqrt(self.embed.embedding_dim)
        h = self.layer(x, src_key_padding_mask=ids.ne(self.pad))  # BUG: mask-polarity
        return h @ self.embed.weight.t()


def build():
    torch.manual_seed(0)
    ids = torch.randint(2, 40, (2, 7))
    ids[1, 5:] = 1
    return TiedMLM().eval(), (ids,)
