"""Character-level poetry LM with rhyme conditioning.

Besides characters, every position carries the id of the rhyme class required for the line it
belongs to (known in advance from the rhyme scheme, e.g. ABAB), and a line-position embedding
(distance to the line end) so the model can plan the rhyme. Both are functions of the scheme,
not of the text, so they may be added at every position without leaking future characters."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.wqkv = nn.Linear(d, 3 * d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = torch.chunk(self.wqkv(x), 3, dim=-1)
        q, k, v = (t.reshape(B, T, self.h, D // self.h) for t in (q, k, v))
        logits = torch.einsum("bqhd,bkhd->bhqk", q, k) * (D // self.h) ** -0.5
        fut = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        logits = logits.masked_fill(fut, float("-inf"))
        w = logits.softmax(dim=-1)
        out = torch.einsum("bhqk,bkhd->bqhd", w, v).reshape(B, T, D)
        return self.wo(out)


class PoetryLM(nn.Module):
    def __init__(self, n_chars=64, n_rhymes=8, d=32, h=4, depth=3, max_len=32, max_line=24):
        super().__init__()
        self.char = nn.Embedding(n_chars, d)
        self.rhyme = nn.Embedding(n_rhymes, d)
        self.to_end = nn.Embedding(max_line, d)
        self.pos = nn.Embedding(max_len, d)
        self.attn = nn.ModuleList(CausalAttention(d, h) for _ in range(depth))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(depth))
        self.ln = nn.ModuleList(nn.LayerNorm(d) for _ in range(2 * depth + 1))
        self.head = nn.Linear(d, n_chars)

    def forward(self, chars, rhyme_ids, chars_to_line_end):
        T = chars.size(1)
        x = self.char(chars) + self.rhyme(rhyme_ids) + self.to_end(chars_to_line_end) + self.pos.weight[:T]
        for i, (att, mlp) in enumerate(zip(self.attn, self.mlp)):
            x = x + att(self.ln[2 * i](x))
            x = x + mlp(self.ln[2 * i + 1](x))
        return self.head(self.ln[-1](x))


def scheme_features(line_lengths, scheme, T):
    rhyme, to_end = [], []
    for L, r in zip(line_lengths, scheme):
        rhyme += [r] * L
        to_end += list(range(L - 1, -1, -1))
    return torch.tensor(rhyme[:T]), torch.tensor(to_end[:T])


def build():
    torch.manual_seed(0)
    model = PoetryLM().eval()
    T = 24
    r0, e0 = scheme_features([7, 5, 6, 6], [1, 2, 1, 2], T)
    r1, e1 = scheme_features([6, 6, 6, 6], [3, 3, 4, 4], T)
    chars = torch.randint(0, 64, (2, T))
    return model, (chars, torch.stack([r0, r1]), torch.stack([e0, e1]))
