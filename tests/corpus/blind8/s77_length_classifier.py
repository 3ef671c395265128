import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.proj_qkv = nn.Linear(d, 3 * d)
        self.proj_out = nn.Linear(d, d)

    def forward(self, x, pair_mask):
        B, T, D = x.shape
        q, k, v = self.proj_qkv(x).reshape(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(D // self.h)
        s = s.masked_fill(~pair_mask.unsqueeze(1), float("-inf"))
        a = F.softmax(s, dim=-1)
        o = torch.einsum("bhqk,bhkd->bhqd", a, v)
        return self.proj_out(o.transpose(1, 2).reshape(B, T, D))


class Encoder(nn.Module):
    def __init__(self, vocab=50, d=32, h=4, n=2, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(16, d)
        self.att = nn.ModuleList([SelfAttention(d, h) for _ in range(n)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)) for _ in range(n)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n)])
        self.cls = nn.Linear(d, n_classes)

    def forward(self, tokens, lengths):
        T = tokens.size(1)
        valid = torch.arange(T)[None, :] < lengths[:, None]
        pair_mask = valid[:, :, None] & valid[:, None, :]
        x = self.emb(tokens) + self.pos(torch.arange(T))
        for a, f, l1, l2 in zip(self.att, self.ff, self.ln1, self.ln2):
            x = l1(x + a(x, pair_mask))
            x = l2(x + f(x))
        x = x.masked_fill(~valid[:, :, None], 0.0)
        return self.cls(x.sum(1) / lengths[:, None])


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    tokens = torch.tensor([[4, 17, 26, 9, 33, 0, 0], [12, 7, 41, 0, 0, 0, 0], [3, 8, 15, 22, 29, 36, 43]])
    lengths = torch.tensor([5, 3, 7])
    return model, (tokens, lengths)
