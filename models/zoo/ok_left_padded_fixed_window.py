"""A sequential recommender trained on histories left-padded to one window, with positions counted from the window's start: correct by design.

Every history is left-padded to the same window, in training as here, so the latest item always
sits in the last slot and the learned positions mean "slots before the end". Run alone, unpadded,
a history would sit elsewhere: the model's outputs depend on the window, on purpose.
"""

import math

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class WindowRecommender(nn.Module):
    def __init__(self, items: int = 40, d_model: int = 16, window: int = 8):
        super().__init__()
        self.items = nn.Embedding(items + 1, d_model, padding_idx=0)
        self.slots = nn.Embedding(window, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, history, valid):
        B, T = history.shape
        x = (self.items(history) + self.slots(torch.arange(T))) * valid[..., None]
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        keep = torch.ones(T, T, dtype=torch.bool).tril() & valid[:, None, :].bool()
        keep = keep | torch.eye(T, dtype=torch.bool)  # a padded slot reads itself: no empty row
        scores = (q @ k.transpose(1, 2) / math.sqrt(x.shape[-1])).masked_fill(~keep, float("-inf"))
        return scores.softmax(dim=-1) @ v  # the history read up to each slot


def build():
    torch.manual_seed(0)
    history = torch.zeros(3, 8, dtype=torch.long)
    for row, length in enumerate((8, 5, 3)):
        history[row, 8 - length:] = torch.randint(1, 41, (length,))
    return WindowRecommender().eval(), (history, (history != 0).long())
