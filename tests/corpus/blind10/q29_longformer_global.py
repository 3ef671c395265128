import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingWindowAttention(nn.Module):
    def __init__(self, d=32, heads=4, one_sided_window=2):
        super().__init__()
        self.h, self.w = heads, one_sided_window
        self.query, self.key, self.value = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, hidden, attention_mask, is_global):
        B, T, D = hidden.shape
        dh = D // self.h
        q = self.query(hidden).view(B, T, self.h, dh).transpose(1, 2) / math.sqrt(dh)
        k = self.key(hidden).view(B, T, self.h, dh).transpose(1, 2)
        v = self.value(hidden).view(B, T, self.h, dh).transpose(1, 2)
        idx = torch.arange(T)
        in_window = (idx[:, None] - idx[None, :]).abs() <= self.w
        visible = (in_window[None] | is_global[:, None, :] | is_global[:, :, None]) & attention_mask[:, None, :]
        weights = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
        weights = weights * visible[:, None].to(weights.dtype)
        ctx = (weights @ v).transpose(1, 2).reshape(B, T, D)
        return self.out(ctx)


class QAEncoder(nn.Module):
    """Question tokens get global attention, document tokens attend locally."""

    def __init__(self, vocab=60, d=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(1, 16, d) * 0.02)
        self.attn = nn.ModuleList(SlidingWindowAttention(d) for _ in range(layers))
        self.norm1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.norm2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(layers))
        self.qa = nn.Linear(d, 2)

    def forward(self, input_ids, attention_mask, question_len):
        T = input_ids.size(1)
        is_global = torch.arange(T)[None, :] < question_len[:, None]
        am = attention_mask.bool()
        x = self.emb(input_ids) + self.pos[:, :T]
        for attn, n1, n2, ff in zip(self.attn, self.norm1, self.norm2, self.ff):
            x = n1(x + attn(x, am, is_global))
            x = n2(x + ff(x))
        return self.qa(x)  # start / end logits


def build():
    torch.manual_seed(0)
    model = QAEncoder().eval()
    ids = torch.zeros(2, 14, dtype=torch.long)
    lens = [14, 9]
    for b, n in enumerate(lens):
        ids[b, :n] = torch.randint(2, 60, (n,))
    attention_mask = (ids != 0).long()
    question_len = torch.tensor([3, 2])
    return model, (ids, attention_mask, question_len)
