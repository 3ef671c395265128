"""Correct: causal self-attention through `F.scaled_dot_product_attention(..., is_causal=True)`.

Trap for a checker that only sees hand-written softmax and masks: the scale, the mask and
the softmax all happen inside one library call (default scale 1/sqrt(d_k)).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class SDPACausal(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)
        k = k.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)
        v = v.view(B, T, self.n_heads, C // self.n_heads).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


def build():
    torch.manual_seed(0)
    model = SDPACausal().eval()
    x = torch.randn(2, 6, 16)
    return model, (x,)
