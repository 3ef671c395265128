"""Bahdanau (additive) attention of one decoder step, its padding mask applied the wrong way round.

The scores are one row per sample, (B, S): there is no query axis, one decoder state attends
over the encoder's states. `src_mask` is 1 at real tokens, and `masked_fill(src_mask == 1, ...)`
hides exactly those, so the step attends only to the padding (and a sample without padding
sees no key at all). Fix: `masked_fill(src_mask == 0, -1e10)`.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("mask-polarity",)
ALSO: tuple[str, ...] = ("fully-masked-row",)


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
        scores = scores.masked_fill(src_mask == 1, -1e10)  # BUG: mask-polarity
        weights = F.softmax(scores, dim=1)
        return torch.bmm(weights.unsqueeze(1), encoder_states).squeeze(1)


def build():
    torch.manual_seed(0)
    lengths = torch.tensor([7, 5, 3])
    src_mask = (torch.arange(7)[None, :] < lengths[:, None]).long()
    return AdditiveAttention().eval(), (torch.randn(3, 16), torch.randn(3, 7, 16), src_mask)
