"""A sequence-first encoder's output, (T, B, d), brought batch-first before it is flattened for a classifier: correct.

Twin of batch_leak_seq_first_flatten.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class FlatClassifier(nn.Module):
    def __init__(self, d_model: int = 16, length: int = 6, classes: int = 3):
        super().__init__()
        self.attention = nn.MultiheadAttention(d_model, 2)  # sequence-first, as torch's default
        self.head = nn.Linear(length * d_model, classes)

    def forward(self, x):  # x: (T, B, d)
        h, _ = self.attention(x, x, x)
        T, B, d = h.shape
        return self.head(h.transpose(0, 1).reshape(B, T * d))


def build():
    torch.manual_seed(0)
    model = FlatClassifier().eval()
    return model, (torch.randn(6, 3, 16),)
