"""A length regulator (FastSpeech): each phoneme repeated for its duration, then frames get positions.

`repeat_interleave` with a count per phoneme makes a new, longer sequence (the frames); a
position table added over the frames varies along that sequence, not along the features.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class FrameDecoder(nn.Module):
    def __init__(self, symbols: int = 20, width: int = 16, frames: int = 12):
        super().__init__()
        self.frames = frames
        self.embed = nn.Embedding(symbols, width)
        self.positions = nn.Embedding(32, width)
        self.attention = nn.MultiheadAttention(width, 2, batch_first=True)
        self.mel = nn.Linear(width, 4)

    def forward(self, phonemes, durations):
        hidden = self.embed(phonemes)
        stretched = [torch.repeat_interleave(h, d, dim=0) for h, d in zip(hidden, durations)]
        lengths = torch.tensor([s.shape[0] for s in stretched])
        y = torch.stack([F.pad(s, (0, 0, 0, self.frames - s.shape[0])) for s in stretched])
        y = y + self.positions(torch.arange(self.frames))[None]
        padding = torch.arange(self.frames)[None, :] >= lengths[:, None]
        mixed, _ = self.attention(y, y, y, key_padding_mask=padding, need_weights=False)
        return self.mel(y + mixed).masked_fill(padding[..., None], 0.0)


def build():
    torch.manual_seed(0)
    phonemes = torch.randint(1, 20, (2, 5))
    durations = torch.tensor([[2, 1, 3, 2, 1], [1, 2, 1, 1, 2]])
    return FrameDecoder().eval(), (phonemes, durations)
