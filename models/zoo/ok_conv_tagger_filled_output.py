"""A padded token tagger that zeroes the padded frames before its convolution, its output filled with -1e4 at the padding: correct.

The padded frames hold zeros when the depthwise convolution mixes each frame with its
neighbours, whatever the input held there, and attention hides them as keys: no real output
depends on the padding's content. Twin of padding_leak_conv_tagger_filled_output.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class ConvTagger(nn.Module):
    def __init__(self, features: int = 8, d_model: int = 16, tags: int = 5):
        super().__init__()
        self.project = nn.Linear(features, d_model)
        self.mix = nn.Conv1d(d_model, d_model, kernel_size=3, padding=1, groups=d_model)
        self.attend = nn.MultiheadAttention(d_model, 2, batch_first=True)
        self.tag = nn.Linear(d_model, tags)

    def forward(self, frames: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        x = self.project(frames).masked_fill(pad[..., None], 0.0)
        x = x + self.mix(x.transpose(1, 2)).transpose(1, 2)
        x = x + self.attend(x, x, x, key_padding_mask=pad, need_weights=False)[0]
        return self.tag(x).amax(-1).masked_fill(pad, -1e4)


def build():
    torch.manual_seed(0)
    pad = torch.zeros(2, 9, dtype=torch.bool)
    pad[1, 6:] = True
    return ConvTagger().eval(), (torch.randn(2, 9, 8), pad)
