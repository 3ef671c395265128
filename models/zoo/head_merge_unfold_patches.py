"""Patches cut with `F.unfold`; the heads are merged back with `reshape(B, L, D)` straight from (B, H, L, d_h).

The attention output is (B, H, L, d_h); merging it into (B, L, H·d_h) needs the heads moved
next to the features first. Reshaping directly interleaves head and patch positions. Fix:
`y.transpose(1, 2).reshape(B, L, D)`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ("head-merge",)


class PatchEncoder(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 16, heads: int = 2):
        super().__init__()
        self.patch, self.heads = patch, heads
        self.to_embedding = nn.Linear(3 * patch * patch, dim)
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, img):
        patches = F.unfold(img, kernel_size=self.patch, stride=self.patch).transpose(1, 2)
        x = self.to_embedding(patches)
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v)
        return y.reshape(B, L, D)  # BUG: head-merge


def build():
    torch.manual_seed(0)
    model = PatchEncoder().eval()
    return model, (torch.randn(2, 3, 12, 12),)
