"""With pad id 1 (`padding_idx=1`), the key padding mask is built as `ids == PAD` but used as a keep-mask: inverted.

`keep = ids == PAD` is True exactly on the padding; filling where `~keep` hides every real
token and shows only the padding to the queries of the padded sample (and every key to the
others is hidden: they have no padding). Fix: `keep = ids != PAD`.
Secondary: the unpadded sample's rows see no key at all -> ALSO = ("fully-masked-row",).
"""

import math

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("mask-polarity",)
ALSO: tuple[str, ...] = ("fully-masked-row",)
PAD = 1


class Encoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.tokens = nn.Embedding(vocab, d_model, padding_idx=PAD)
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)

    def forward(self, ids):
        x = self.tokens(ids)
        B, T, d = x.shape
        split = lambda t: t.view(B, T, self.h, self.dk).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        keep = ids == PAD
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.dk)
        scores = scores.masked_fill(~keep[:, None, None, :], -1e9)  # BUG: mask-polarity
        return (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, d)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    ids = torch.tensor([[0, 5, 8, 3, 9, 2], [7, 0, 4, PAD, PAD, PAD]])
    return model, (ids,)
