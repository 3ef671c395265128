"""A padded masked-LM encoder whose output projection is tied to its embedding (`padding_idx` = 1): correct.

Padding is known from the pad id alone, and the pad id's embedding row is also the weight of the
pad token's logit: redrawing that row would move every position's pad logit, which is no leak.
The padding witness says why it does not run; the sample run alone, cut to its real tokens,
still proves that padding reaches no real position. Twin of mask_polarity_tied_embedding.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class TiedMLM(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2, pad: int = 1):
        super().__init__()
        self.pad = pad
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad)
        self.layer = nn.TransformerEncoderLayer(d_model, n_heads, 32, dropout=0.0, batch_first=True)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        h = self.layer(self.embed(ids) * math.sqrt(self.embed.embedding_dim), src_key_padding_mask=ids.eq(self.pad))
        return h @ self.embed.weight.t()


def build():
    torch.manual_seed(0)
    ids = torch.randint(2, 40, (2, 7))
    ids[1, 5:] = 1
    return TiedMLM().eval(), (ids,)
