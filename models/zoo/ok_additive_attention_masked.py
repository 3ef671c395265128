"""Correct: Bahdanau (additive) attention of one decoder step over padded encoder states, padding hidden.

Trap for a checker whose mask patterns need a table of queries against keys: the scores are
(B, S), one row per sample, and the padding is known only from the `src_mask` input.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class AdditiveAttention(nn.Module):
    def __init__(self, width: int = 16):
        super().__init__()
        self.attn = nn.Linear(2 * width, width)
        self.v = nn.Linear(width, 1, bias=False)

    def forward(self, hidden, encoder_states, src_mask):       # (B, d), (B, S, d), (B, S) with 1 = real
        steps = encoder_states.shape[1]
        repeated = hidden.unsqueeze(1).repeat(1, steps, 1)
        energy = torch.tanh(self.attn(torch.cat((repeated, encoder_states), dim=2)))
        scores = self.v(energy).squeeze(2)                      # (B, S)
        scores = scores.masked_fill(src_mask == 0, -1e10)
        weights = F.softmax(scores, dim=1)
        return torch.bmm(weights.unsqueeze(1), encoder_states).squeeze(1)


def build():
    torch.manual_seed(0)
    lengths = torch.tensor([7, 5, 3])
    src_mask = (torch.arange(7)[None, :] < lengths[:, None]).long()
    return AdditiveAttention().eval(), (torch.randn(3, 16), torch.randn(3, 7, 16), src_mask)
