"""Cross-attention with queries and keys/values swapped (encoder memory as queries), added to the decoder stream.

In a decoder layer the decoder states must be the queries and the encoder memory the keys
and values: `cross(tgt, memory, memory)`. Here `cross(memory, tgt, tgt)` returns one row per
ENCODER position, and the residual adds it to the decoder states position by position.
Shapes agree only because both sequences have length 5, so encoder position i is silently
added to decoder position i. Fix: `self.cross_attn(tgt, memory, memory)`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("axis-mismatch",)


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, tgt, memory):
        T = tgt.size(1)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        x = self.norm1(tgt + self.self_attn(tgt, tgt, tgt, attn_mask=causal)[0])
        x = self.norm2(x + self.cross_attn(memory, x, x)[0])  # BUG: axis-mismatch
        return x


def build():
    torch.manual_seed(0)
    model = DecoderLayer().eval()
    tgt = torch.randn(2, 5, 16)  # decoder states (B, T_dec, d)
    memory = torch.randn(2, 5, 16)  # encoder output (B, T_enc, d), same length by chance
    return model, (tgt, memory)
