"""A 3-D (B*H, T, T) `attn_mask` for `nn.MultiheadAttention` built with `repeat`: each sample's heads get other samples' padding.

torch reads the first dim of a 3-D attn_mask batch-major: rows b*H .. b*H + H - 1 belong to
sample b. `mask.repeat(H, 1, 1)` tiles the batch instead (row h*B + b is sample b), so head 0
of sample 0 gets sample 0's padding but head 1 of sample 0 gets sample 1's, and so on: the
padding follows the wrong batch/head order. Fix: `mask.repeat_interleave(H, dim=0)`.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ("mask-axis",)


class Block(nn.Module):
    def __init__(self, d_model: int = 16, n_heads: int = 2):
        super().__init__()
        self.n_heads = n_heads
        self.attn = nn.MultiheadAttention(d_model, n_heads, batch_first=True)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, padding):  # padding: (B, T), True = pad
        B, T, _ = x.shape
        hide = padding[:, None, :].expand(B, T, T)
        hide = hide.repeat(self.n_heads, 1, 1)  # (H*B, T, T): tiled, not per sample
        h, _ = self.attn(x, x, x, attn_mask=hide)  # BUG: mask-axis
        return self.norm(x + h)


def build():
    torch.manual_seed(0)
    model = Block().eval()
    x = torch.randn(3, 5, 16)
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
    return model, (x, padding)
