"""Exercise 1: scaled dot-product attention with Q = K = I_2, V = [[2, 0], [0, 4]], no mask.

Scaled scores are I_2 / sqrt(2); the weights per row are [0.6698, 0.3302] and
[0.3302, 0.6698]; the output rows are [1.3395, 1.3210] and [0.6605, 2.6790].
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import scaled_dot_product_attention

EXPECTED: tuple[str, ...] = ()


class Exercise1Attention(nn.Module):
    """No parameters: a module only so that the tracer can record the call."""

    def forward(self, q: Tensor, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        return scaled_dot_product_attention(q, k, v)


def build() -> tuple[nn.Module, tuple[Tensor, Tensor, Tensor]]:
    torch.manual_seed(0)
    q = torch.eye(2)
    k = torch.eye(2)
    v = torch.tensor([[2.0, 0.0], [0.0, 4.0]])
    return Exercise1Attention().eval(), (q, k, v)
