"""Sequential fraud detector: a GRU over a card's transactions followed by causal
self-attention, written out by hand so attention weights can be logged for investigators.

Features per transaction: amount, time since previous transaction, and merchant category.
"""
import math

import torch
import torch.nn as nn


def causal_softmax_attention(q, k, v):
    T = q.size(-2)
    scores = q @ k.transpose(-1, -2) / math.sqrt(q.size(-1))
    future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=q.device), 1)
    scores = scores.masked_fill(future, float("-inf"))
    w = torch.exp(scores)
    w = w / w.sum(dim=-1, keepdim=True)
    return w @ v, w


class TxnEncoder(nn.Module):
    def __init__(self, n_mcc=40, d=32, heads=2):
        super().__init__()
        self.h = heads
        self.mcc = nn.Embedding(n_mcc, d - 2)
        self.gru = nn.GRU(d, d, batch_first=True)
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.out = nn.Linear(2 * d, 1)

    def forward(self, amount, dt_minutes, mcc):
        x = torch.cat([amount.unsqueeze(-1), dt_minutes.unsqueeze(-1), self.mcc(mcc)], -1)
        h, _ = self.gru(x)
        B, T, d = h.shape
        split = lambda t: t.view(B, T, self.h, -1).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(h))
        ctx, self.last_weights = causal_softmax_attention(q, k, v)
        ctx = ctx.transpose(1, 2).reshape(B, T, d)
        return torch.sigmoid(self.out(torch.cat([h, ctx], -1))).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = TxnEncoder().eval()
    amount = torch.rand(2, 12) * 2000
    dt_minutes = torch.rand(2, 12) * 600
    mcc = torch.randint(0, 40, (2, 12))
    return model, (amount, dt_minutes, mcc)
