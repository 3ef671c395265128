"""Reference 2-layer post-norm encoder stack (X' = LN(X + MHA(X))) on (2, 5, 16), padding masked.

Sample 1's last two positions are padding: the key padding mask (True = padding) keeps every
query from reading them.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import TransformerEncoder

EXPECTED: tuple[str, ...] = ()


def build() -> tuple[nn.Module, tuple[Tensor], dict[str, Tensor]]:
    torch.manual_seed(0)
    model = TransformerEncoder(num_layers=2, d_model=16, num_heads=4, d_ff=32, norm_first=False)
    x = torch.randn(2, 5, 16)
    key_padding_mask = torch.zeros(2, 5, dtype=torch.bool)
    key_padding_mask[1, 3:] = True
    return model.eval(), (x,), {"key_padding_mask": key_padding_mask}
