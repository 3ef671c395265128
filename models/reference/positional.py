"""Sinusoidal positional encoding: the course's PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(...).

Self-attention alone is permutation-equivariant; adding a different vector to each position is
what lets the model tell the order of the tokens.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


def sinusoidal_positions(max_len: int, d: int) -> Tensor:
    """Table P of shape (max_len, d); row p is the encoding of position p (counted from 0).

    Feature 2i holds sin(p / 10000^(2i/d)) and feature 2i+1 holds cos of the same angle, so
    each sin/cos pair shares one frequency, from 1 (i = 0) down to about 1/10000.
    """
    position = torch.arange(max_len, dtype=torch.float32).unsqueeze(1)  # (max_len, 1)
    two_i = torch.arange(0, d, 2, dtype=torch.float32)  # the even feature indices 2i
    angle = position / 10000.0 ** (two_i / d)  # (max_len, ceil(d / 2))
    table = torch.zeros(max_len, d)
    table[:, 0::2] = torch.sin(angle)
    table[:, 1::2] = torch.cos(angle[:, : d // 2])  # an odd d has one sine more than cosines
    return table


class SinusoidalPositionalEncoding(nn.Module):
    """Adds P[:T] to batch-first input (B, T, d), position by position.

    The table is a buffer, not a parameter: it moves with the module (.to(device)) but is not
    trained.
    """

    def __init__(self, max_len: int, d_model: int) -> None:
        super().__init__()
        self.max_len = max_len
        self.register_buffer("table", sinusoidal_positions(max_len, d_model))

    def forward(self, x: Tensor) -> Tensor:
        """x (B, T, d) -> x + P[:T] (B, T, d); T must not exceed max_len."""
        length = x.size(1)
        if length > self.max_len:
            raise ValueError(f"sequence length {length} exceeds max_len={self.max_len}")
        return x + self.table[:length]
