"""Reference GRU sequence classifier (exercise 8's baseline): vocab 50, d=16, 3 classes.

Token ids (2, 6) with trailing [PAD] = 0 in sample 1; the GRU's state at each sequence's last
real token feeds the classification head.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from models.reference import GRUClassifier

EXPECTED: tuple[str, ...] = ()


def build() -> tuple[nn.Module, tuple[Tensor]]:
    torch.manual_seed(0)
    model = GRUClassifier(vocab=50, d_model=16, num_classes=3)
    tokens = torch.randint(1, 50, (2, 6))
    tokens[1, 4:] = 0
    return model.eval(), (tokens,)
