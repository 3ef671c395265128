"""Exercise 4: the reference MultiHeadAttention with m=8, T=128, d=256, H=8 (d_k = 32).

Self-attention on a float batch (8, 128, 256): Q, K, V are 8 x 8 x 128 x 32 after the head
split, the score table is 8 x 8 x 128 x 128 = 1,048,576 elements (4 MiB in float32), and the
concatenated output is 8 x 128 x 256.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import MultiHeadAttention

EXPECTED: tuple[str, ...] = ()


def build() -> tuple[nn.Module, tuple[Tensor]]:
    torch.manual_seed(0)
    model = MultiHeadAttention(d_model=256, num_heads=8).eval()
    x = torch.randn(8, 128, 256)
    return model, (x,)
