"""Reference post-norm decoder layer: causal self-attention on T_q=4 targets, cross-attention to T_k=6 memory rows.

The decoder states (2, 4, 16) are the queries of the cross-attention; the encoder memory
(2, 6, 16) gives its keys and values, so its weights are 4 x 6 per head.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import DecoderLayer

EXPECTED: tuple[str, ...] = ()


def build() -> tuple[nn.Module, tuple[Tensor, Tensor]]:
    torch.manual_seed(0)
    model = DecoderLayer(d_model=16, num_heads=4, d_ff=32)
    y = torch.randn(2, 4, 16)
    memory = torch.randn(2, 6, 16)
    return model.eval(), (y, memory)
