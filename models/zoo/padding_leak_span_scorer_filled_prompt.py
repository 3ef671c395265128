"""A padded span scorer that reads the padded frames through a convolution, its scores filled with -1e4 at the prompt as well as at the padding.

Only positions after the prompt are scored, so the scores at the prompt (real positions) and at
the padding hold one fill, -1e4. The convolution over time mixes each real frame with its padded
neighbours, so the last real scores move a little with whatever the padding holds. A fill is one
value repeated, not a scale: a witness judges the move against the scores actually computed.
Fix: `x.masked_fill(pad[..., None], 0.0)` before the convolution. Twin of ok_span_scorer_filled_prompt.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("padding-leak",)
PROMPT = 4


class SpanScorer(nn.Module):
    def __init__(self, features: int = 8, d_model: int = 16):
        super().__init__()
        self.project = nn.Linear(features, d_model)
        self.mix = nn.Conv1d(d_model, d_model, kernel_size=3, padding=1, groups=d_model)
        self.attend = nn.MultiheadAttention(d_model, 2, batch_first=True)
        self.score = nn.Linear(d_model, 1)
        nn.init.normal_(self.score.weight, std=0.002)

    def forward(self, frames: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        x = self.project(frames)
        x = x + self.mix(x.transpose(1, 2)).transpose(1, 2)  # BUG: padding-leak
        x = x + self.attend(x, x, x, key_padding_mask=pad, need_weights=False)[0]
        unscored = pad.clone()
        unscored[:, :PROMPT] = True
        return self.score(x).squeeze(-1).masked_fill(unscored, -1e4)


def build():
    torch.manual_seed(0)
    pad = torch.zeros(2, 10, dtype=torch.bool)
    pad[1, 7:] = True
    return SpanScorer().eval(), (torch.randn(2, 10, 8), pad)
