"""Neural program repair with diff-aware attention.

The buggy code's tokens carry a flag from the fault localizer (1 = inside the suspicious hunk).
Attention adds a learned-free bias toward flagged keys so the decoder of fixes concentrates on
the hunk; the softmax is written out to expose unnormalized scores for the copy mechanism."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def hunk_softmax(scores):
    e = torch.exp(scores)
    return e / e.sum(-1, keepdim=True)


class DiffAwareAttention(nn.Module):
    def __init__(self, d, h, hunk_bias=100.0):
        super().__init__()
        self.h, self.hunk_bias = h, hunk_bias
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def forward(self, x, hunk):
        B, T, D = x.shape
        sh = lambda t: t.view(B, T, self.h, -1).transpose(1, 2)
        q, k, v = sh(self.q(x)), sh(self.k(x)), sh(self.v(x))
        s = q @ k.transpose(-1, -2) / math.sqrt(D // self.h)
        s = s + self.hunk_bias * hunk[:, None, None, :].float()
        p = hunk_softmax(s)
        return self.o((p @ v).transpose(1, 2).reshape(B, T, D))


class RepairEncoder(nn.Module):
    def __init__(self, vocab=200, d=32, h=4, depth=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.flag = nn.Embedding(2, d)
        self.pos = nn.Embedding(32, d)
        self.attn = nn.ModuleList(DiffAwareAttention(d, h) for _ in range(depth))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)) for _ in range(depth))
        self.ln = nn.ModuleList(nn.LayerNorm(d) for _ in range(2 * depth))
        self.edit_head = nn.Linear(d, 4)  # keep / delete / replace / insert-after

    def forward(self, code_ids, hunk_flags):
        T = code_ids.size(1)
        x = self.tok(code_ids) + self.flag(hunk_flags) + self.pos.weight[:T]
        for i, (att, ff) in enumerate(zip(self.attn, self.ff)):
            x = self.ln[2 * i](x + att(x, hunk_flags))
            x = self.ln[2 * i + 1](x + ff(x))
        return self.edit_head(x)


def build():
    torch.manual_seed(0)
    model = RepairEncoder().eval()
    ids = torch.randint(0, 200, (2, 20))
    hunk = torch.zeros(2, 20, dtype=torch.long)
    hunk[0, 6:11] = 1
    hunk[1, 12:15] = 1
    return model, (ids, hunk)
