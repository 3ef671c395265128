"""Batch-first input (B, T, d) fed to `nn.MultiheadAttention(batch_first=False)`: softmax over the batch axis.

`nn.MultiheadAttention` defaults to sequence-first (T, B, d). The model's own code says its
data is batch-first: the token ids are (B, T) and the learned position table (1, max_len, d)
is cut along dim 1 and broadcast over dim 0. Given that (B, T, d) tensor, the attention reads
the batch axis as the sequence, so each token attends to the tokens at the same position in
the OTHER batch items, and its softmax normalizes over the batch axis instead of the key
positions of its own sequence. Nothing raises because the shape is valid either way. Fix:
`nn.MultiheadAttention(d, H, batch_first=True)` (or transpose the input to (T, B, d)).
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("softmax-axis",)


class Encoder(nn.Module):
    def __init__(self, vocab: int = 20, d_model: int = 16, n_heads: int = 2, max_len: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.randn(1, max_len, d_model) * 0.02)
        self.attn = nn.MultiheadAttention(d_model, n_heads)  # batch_first=False by default
        self.norm = nn.LayerNorm(d_model)

    def forward(self, input_ids):  # (B, T) token ids, batch first
        x = self.embed(input_ids) + self.pos[:, : input_ids.size(1)]
        out, _ = self.attn(x, x, x)  # BUG: softmax-axis
        return self.norm(x + out)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    input_ids = torch.tensor([[3, 7, 1, 9, 4], [2, 8, 5, 6, 11]])  # B=2, T=5
    return model, (input_ids,)
