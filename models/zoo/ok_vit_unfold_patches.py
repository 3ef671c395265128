"""Correct: patches cut with `F.unfold` (no convolution), projected by a Linear, attended with SDPA.

Trap for a checker that only knows text: `unfold` returns (B, C·p·p, L) with the L patches
LAST; the model transposes them into the sequence position before the projection.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ()


class PatchEncoder(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 16, heads: int = 2):
        super().__init__()
        self.patch, self.heads = patch, heads
        self.to_embedding = nn.Linear(3 * patch * patch, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, img):
        patches = F.unfold(img, kernel_size=self.patch, stride=self.patch).transpose(1, 2)  # (B, L, C*p*p)
        x = self.to_embedding(patches)
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v)
        return self.out(y.transpose(1, 2).reshape(B, L, D)).mean(dim=1)


def build():
    torch.manual_seed(0)
    model = PatchEncoder().eval()
    return model, (torch.randn(2, 3, 12, 12),)
