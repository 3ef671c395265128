"""Correct: a ViT with register tokens: CLS + patches + R registers concatenated into one sequence.

Trap for a checker that only knows text: the sequence is built from three parts, two of them
parameters, and the classifier reads the CLS position.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


EXPECTED: tuple[str, ...] = ()


class ViTWithRegisters(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 16, heads: int = 2, registers: int = 2):
        super().__init__()
        self.heads = heads
        self.to_patches = nn.Conv2d(1, dim, patch, stride=patch)
        self.cls = nn.Parameter(torch.randn(1, 1, dim))
        self.registers = nn.Parameter(torch.randn(1, registers, dim))
        self.qkv = nn.Linear(dim, 3 * dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, img):
        x = self.to_patches(img).flatten(2).transpose(1, 2)
        B, N, D = x.shape
        x = torch.cat((self.cls.expand(B, -1, -1), x, self.registers.expand(B, -1, -1)), dim=1)
        q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
        q, k, v = (t.unflatten(-1, (self.heads, D // self.heads)).transpose(1, 2) for t in (q, k, v))
        x = x + F.scaled_dot_product_attention(q, k, v).transpose(1, 2).flatten(2)
        return x[:, 0]


def build():
    torch.manual_seed(0)
    model = ViTWithRegisters().eval()
    return model, (torch.randn(2, 1, 8, 12),)
