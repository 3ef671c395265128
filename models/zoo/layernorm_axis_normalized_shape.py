"""`nn.LayerNorm((T, d))` in a post-norm encoder layer: normalized_shape covers the sequence axis too.

`normalized_shape` lists the trailing axes the statistics are taken over. (T, d) = (5, 16)
normalizes each sample over all its tokens and features at once, so a token's output
depends on the rest of the sequence, the layer only accepts length-5 inputs, and gamma /
beta are per position. It runs because the input happens to have T = 5. Fix:
`nn.LayerNorm(d_model)`. The marker is on the forward line that calls the norm.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("layernorm-axis",)


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, seq_len: int = 5):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm1 = nn.LayerNorm((seq_len, d_model))
        self.ffn = nn.Sequential(nn.Linear(d_model, 32), nn.ReLU(), nn.Linear(32, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x):
        h, _ = self.attn(x, x, x, need_weights=False)
        x = self.norm1(x + h)  # BUG: layernorm-axis
        return self.norm2(x + self.ffn(x))


def build():
    torch.manual_seed(0)
    model = EncoderLayer().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
