"""Correct: a 3-D (B*H, T, T) `attn_mask` for `nn.MultiheadAttention`, padding expanded per head with `repeat_interleave`.

Trap for a checker that reads per-head masks loosely: torch orders the first dim of a 3-D
attn_mask batch-major (sample b's heads are rows b*H .. b*H + H - 1), which is what
`repeat_interleave(H, dim=0)` builds.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


class Block(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, padding):  # padding: (B, T), True = pad
        B, T, _ = x.shape
        hide = padding[:, None, :].expand(B, T, T)  # (B, T_q, T_k)
        hide = hide.repeat_interleave(self.n_heads, dim=0)  # (B*H, T_q, T_k), batch-major
        h, _ = self.attn(x, x, x, attn_mask=hide)
        return self.norm(x + h)


def build():
    torch.manual_seed(0)
    model = Block().eval()
    x = torch.randn(3, 5, 16)
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
    return model, (x, padding)
