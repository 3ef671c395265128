"""Cross-attention from text to images where text before the first image sees no image, and those rows are zeroed after the softmax (Flamingo style): correct.

The rows with no visible key get uniform weights from the softmax, then `masked_fill(..., 0.0)`
sets every one of them to zero, so nothing reaches the output from them.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class MediaCrossAttention(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.query = nn.Linear(d_model, d_model)
        self.key_value = nn.Linear(d_model, 2 * d_model)

    def forward(self, text, media, media_locations):
        q = self.query(text)
        k, v = self.key_value(media).chunk(2, dim=-1)
        seen = media_locations.cumsum(-1)  # (B, T): images seen so far
        visible = seen[:, :, None] >= torch.arange(1, media.shape[1] + 1)[None, None, :]
        scores = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).masked_fill(~visible, -1e9)
        weights = F.softmax(scores, dim=-1).masked_fill((seen == 0)[:, :, None], 0.0)
        return text + weights @ v


def build():
    torch.manual_seed(0)
    model = MediaCrossAttention().eval()
    locations = torch.zeros(2, 6, dtype=torch.long)
    locations[:, 2] = 1
    locations[1, 4] = 1
    return model, (torch.randn(2, 6, 16), torch.randn(2, 2, 16), locations)
