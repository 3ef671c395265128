"""Reference Transformer-encoder sequence classifier (exercise 8): 2 layers, d=16, H=4, 3 classes.

Token ids (2, 6) with trailing [PAD] = 0 in sample 1; padded keys are masked and the mean
pooling runs over the real tokens only.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import TransformerClassifier

EXPECTED: tuple[str, ...] = ()


def build() -> tuple[nn.Module, tuple[Tensor]]:
    torch.manual_seed(0)
    model = TransformerClassifier(
        vocab=50, d_model=16, num_heads=4, d_ff=32, num_layers=2, num_classes=3, max_len=16
    )
    tokens = torch.randint(1, 50, (2, 6))
    tokens[1, 4:] = 0
    return model.eval(), (tokens,)
