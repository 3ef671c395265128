"""Position ids counted from a left-padding mask with `cumsum(-1)`, each sample's own real tokens: correct.

Twin of batch_leak_positions_over_batch.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ()


class LeftPaddedEncoder(nn.Module):
    def __init__(self, vocab: int = 30, d_model: int = 16, max_len: int = 16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.positions = nn.Embedding(max_len, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        x = self.embed(input_ids) + self.positions(position_ids)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        scores = scores.masked_fill(attention_mask[:, None, :] == 0, float("-inf"))
        return F.softmax(scores, dim=-1) @ v


def build():
    torch.manual_seed(0)
    model = LeftPaddedEncoder().eval()
    mask = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]])
    return model, (torch.randint(1, 30, (3, 6)) * mask, mask)
