"""A sequence-first encoder's output, (T, B, d), flattened for a classifier with `reshape(B, T * d)` and no transpose: each row mixes samples.

The rows of the reshaped tensor take T * d consecutive numbers of a (T, B, d) layout, which
belong to several samples. Fix: `h.transpose(0, 1).reshape(B, T * d)`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("batch-leak",)


class FlatClassifier(nn.Module):
    def __init__(self, d_model: int = 16, length: int = 6, classes: int = 3):
        super().__init__()
        self.attention = nn.MultiheadAttention(d_model, 2)  # sequence-first, as torch's default
        self.head = nn.Linear(length * d_model, classes)

    def forward(self, x):  # x: (T, B, d)
        h, _ = self.attention(x, x, x)
        T, B, d = h.shape
        return self.head(h.reshape(B, T * d))  # BUG: batch-leak


def build():
    torch.manual_seed(0)
    model = FlatClassifier().eval()
    return model, (torch.randn(6, 3, 16),)
