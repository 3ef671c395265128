"""A tokenizer's 0/1 attention_mask cast to float and handed to SDPA's attn_mask, which adds a float mask.

SDPA adds a floating-point attn_mask to the scores: real tokens get +1 and padding +0, so the
padding is not hidden at all. Fix: pass the boolean mask (`attention_mask.bool()`, True =
attend), or an additive one: `(1 - mask) * torch.finfo(dtype).min`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("mask-value",)


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
        bias = attention_mask[:, None, None, :].to(x.dtype)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)  # BUG: mask-value
        return self.norm(x + out.transpose(1, 2).reshape(b, t, width))


def build():
    torch.manual_seed(0)
    ids = torch.randint(1, 30, (2, 7))
    attention_mask = torch.tensor([[1] * 7, [1] * 4 + [0] * 3])
    return Encoder().eval(), (ids * attention_mask, attention_mask)
