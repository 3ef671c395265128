"""Correct: a 0/1 attention_mask turned into an additive float mask, (1 - mask) * finfo.min, for SDPA's attn_mask.

Trap for a checker that reads every float attn_mask as a boolean one or as a bias: this one is
0 at the real tokens and the dtype's lowest value at the padding, which hides it.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class Encoder(nn.Module):
    def __init__(self, vocab: int = 30, width: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, width)
        self.qkv = nn.Linear(width, 3 * width)
        self.norm = nn.LayerNorm(width)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids)
        b, t, width = x.shape
        q, k, v = (p.view(b, t, self.heads, -1).transpose(1, 2) for p in self.qkv(x).chunk(3, dim=-1))
        bias = (1 - attention_mask[:, None, None, :].to(x.dtype)) * torch.finfo(x.dtype).min
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.norm(x + out.transpose(1, 2).reshape(b, t, width))


def build():
    torch.manual_seed(0)
    ids = torch.randint(1, 30, (2, 7))
    attention_mask = torch.tensor([[1] * 7, [1] * 4 + [0] * 3])
    return Encoder().eval(), (ids * attention_mask, attention_mask)
