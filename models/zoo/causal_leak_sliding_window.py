"""Sliding-window attention whose window is off by one: query t sees keys t - w + 2 .. t + 1, one in the future.

The window is written with `j <= i + 1` (meant as "within one position of the query"),
which lets every query read the next token. Fix: `(j <= i) & (j > i - window)`. (A window
reaching equally far both ways, |i - j| < w, is a bidirectional local encoder's, not a
causal mask: see ok_local_window_encoder.)
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ("causal-leak",)


class LocalAttention(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2, window: int = 4):
        super().__init__()
        self.n_heads, self.window = n_heads, window
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, T, self.n_heads, -1).permute(0, 2, 1, 3) for t in (q, k, v))
        i = torch.arange(T).unsqueeze(-1)
        j = torch.arange(T).unsqueeze(0)
        allowed = (j <= i + 1) & (j > i - self.window + 1)
        scores = q @ k.mT / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(~allowed, float("-inf"))  # BUG: causal-leak
        y = F.softmax(scores, dim=-1) @ v
        return self.out(y.permute(0, 2, 1, 3).reshape(B, T, C))


def build():
    torch.manual_seed(0)
    model = LocalAttention().eval()
    return model, (torch.randn(2, 7, 16),)
