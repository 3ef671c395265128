"""A reward model reads each sequence's score at index `lengths - 1`, but its batch is left-padded: the shorter sequences are read at a pad position.

`scores[torch.arange(B), attention_mask.sum(-1) - 1]` picks the last real token of a
right-padded batch; with left padding the last real token is at index -1 for every
sequence, and `lengths - 1` lands in the padding, whose content then moves the reward.
Fix: `scores[:, -1]` for a left-padded batch.
"""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

EXPECTED: tuple[str, ...] = ("padding-leak",)


class RewardModel(nn.Module):
    def __init__(self, vocab: int = 40, d_model: int = 16, n_heads: int = 2, left_padded: bool = True):
        super().__init__()
        self.n_heads, self.d_head = n_heads, d_model // n_heads
        self.embed = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.score = nn.Linear(d_model, 1)
        self.left_padded = left_padded

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        x = self.embed(input_ids)
        q, k, v = self.qkv(x).split(x.shape[-1], dim=-1)
        q, k, v = (t.view(B, T, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))
        keep = torch.ones(T, T, dtype=torch.bool).tril()[None, None] & attention_mask.bool()[:, None, None, :]
        scores = (q @ k.transpose(-2, -1) / math.sqrt(self.d_head)).masked_fill(~keep, -1e9)
        y = (F.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, -1)
        rewards = self.score(x + y).squeeze(-1)
        last = attention_mask.sum(dim=-1) - 1
        return rewards[torch.arange(B), last]  # BUG: padding-leak


def batch(left_padded: bool):
    torch.manual_seed(0)
    lengths, T = [8, 5, 3], 8
    input_ids = torch.zeros(3, T, dtype=torch.long)
    attention_mask = torch.zeros(3, T, dtype=torch.long)
    for row, length in enumerate(lengths):
        where = slice(T - length, T) if left_padded else slice(0, length)
        input_ids[row, where] = torch.randint(1, 40, (length,))
        attention_mask[row, where] = 1
    return input_ids, attention_mask


def build():
    return RewardModel().eval(), batch(left_padded=True)
