"""Span-free semantic role labeling (He et al., 2017 / Tan et al., 2018 style): the sentence is
tagged once per predicate, with a binary predicate-indicator embedding marking the predicate.
Attention uses a numerically safe hand-written masked softmax; pad query rows produce zeros."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def masked_softmax(scores, key_mask, dim=-1):
    """key_mask True = keep. Rows with no visible key return all-zero weights."""
    scores = scores.masked_fill(~key_mask, float("-inf"))
    row_max = scores.amax(dim, keepdim=True)
    row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))
    e = torch.exp(scores - row_max)
    return e / e.sum(dim, keepdim=True).clamp(min=1e-12)


class SelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.proj = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.proj(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(D // self.h)
        keep = mask[:, None, None, :] & mask[:, None, :, None]
        a = masked_softmax(s, keep)
        return self.out(torch.matmul(a, v).transpose(1, 2).reshape(B, T, D))


class SRLTagger(nn.Module):
    def __init__(self, vocab=240, d=48, h=4, depth=3, n_tags=17):
        super().__init__()
        self.word = nn.Embedding(vocab, d, padding_idx=0)
        self.pred = nn.Embedding(2, d)
        self.pos = nn.Embedding(32, d)
        self.attn = nn.ModuleList(SelfAttention(d, h) for _ in range(depth))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)) for _ in range(depth))
        self.norm = nn.ModuleList(nn.LayerNorm(d) for _ in range(2 * depth))
        self.tagger = nn.Linear(d, n_tags)

    def forward(self, words, predicate_index, lengths):
        B, T = words.shape
        idx = torch.arange(T, device=words.device)
        mask = idx[None] < lengths[:, None]
        indicator = (idx[None] == predicate_index[:, None]).long()
        x = self.word(words) + self.pred(indicator) + self.pos(idx)[None]
        for i, (att, ffn) in enumerate(zip(self.attn, self.ffn)):
            x = self.norm[2 * i](x + att(x, mask))
            x = self.norm[2 * i + 1](x + ffn(x))
        return self.tagger(x) * mask[..., None]


def build():
    torch.manual_seed(0)
    model = SRLTagger().eval()
    words = torch.randint(1, 240, (4, 15))
    lengths = torch.tensor([15, 11, 7, 3])
    words[torch.arange(15)[None] >= lengths[:, None]] = 0
    pred = torch.tensor([4, 2, 6, 0])
    return model, (words, pred, lengths)
