"""Correct: `nn.MultiheadAttention(batch_first=True)` with `key_padding_mask = attention_mask == 0` (True = ignore).

Trap for a checker confused by mask conventions: the HF-style attention_mask (1 = keep) is
converted to PyTorch's key_padding_mask polarity, and the input really is batch-first.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class EncoderLayer(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, attention_mask):
        h, _ = self.self_attn(x, x, x, key_padding_mask=attention_mask == 0)
        return self.norm(x + h)


def build():
    torch.manual_seed(0)
    model = EncoderLayer().eval()
    x = torch.randn(2, 5, 16)
    attention_mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
    return model, (x,), {"attention_mask": attention_mask}
