"""HF-style `attention_mask` (1 = keep) passed as `key_padding_mask` (True = ignore) of nn.MultiheadAttention.

The tokenizer's attention_mask is 1 on real tokens and 0 on trailing padding. PyTorch's
key_padding_mask means the opposite: True marks the keys to IGNORE. Passing
`attention_mask.bool()` hides every real token and lets the queries read only the padding.
(Both sequences here are padded; a sequence without padding would have every key hidden
and NaN rows.) Fix: `key_padding_mask=attention_mask == 0`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("mask-polarity",)


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, attention_mask):
        h, _ = self.self_attn(x, x, x, key_padding_mask=attention_mask.bool())  # BUG: mask-polarity
        return self.norm(x + h)


def build():
    torch.manual_seed(0)
    model = EncoderLayer().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 0, 0]])  # trailing 0s = padding
    return model, (x,), {"attention_mask": attention_mask}
