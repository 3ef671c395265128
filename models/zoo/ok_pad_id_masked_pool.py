"""A classifier that takes only token ids (pad id 0) and hides the padding from its attention and its pooling: correct.

Twin of padding_leak_pad_id_mean_pool: whatever the pad id's embedding row holds, no real
output moves.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class IdsOnlyClassifier(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, classes: int = 3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.head = nn.Linear(d_model, classes)

    def forward(self, ids):
        keep = ids != 0
        h = self.embed(ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = (q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])).masked_fill(~keep[:, None, :], float("-inf"))
        h = h + F.softmax(scores, dim=-1) @ v
        return self.head((h * keep[..., None]).sum(1) / keep.sum(1, keepdim=True))


def build():
    torch.manual_seed(0)
    model = IdsOnlyClassifier().eval()
    ids = torch.randint(1, 40, (2, 7))
    ids[1, 4:] = 0
    return model, (ids,)
