"""GPT-2-style attention whose projections are `Conv1D` (`torch.addmm(bias, x, W)`) and whose head split reshapes (B, T, d) straight to (B, H, T, d_h).

The reshape without the transpose tears tokens and features into each other: the new
"positions" axis holds pieces of several tokens. Fix:
`tensor.view(B, T, H, d_h).permute(0, 2, 1, 3)`.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("head-split",)


class Conv1D(nn.Module):
    """A linear layer with its weight stored (in, out), as GPT-2 keeps it."""

    def __init__(self, n_out: int, n_in: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_in, n_out) * 0.02)
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        shape = x.size()[:-1] + (self.weight.size(-1),)
        return torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(shape)


class Attention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.c_attn = Conv1D(3 * d_model, d_model)

    def split_heads(self, tensor):
        B, T, C = tensor.shape
        return tensor.reshape(B, self.n_heads, T, C // self.n_heads)  # BUG: head-split

    def forward(self, x):
        q, k, v = (self.split_heads(t) for t in self.c_attn(x).split(x.shape[-1], dim=2))
        causal = torch.ones(x.shape[1], x.shape[1], dtype=torch.bool).tril()
        scores = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).masked_fill(~causal, float("-inf"))
        return scores.softmax(dim=-1) @ v


def build():
    torch.manual_seed(0)
    model = Attention().eval()
    return model, (torch.randn(2, 5, 16),)
