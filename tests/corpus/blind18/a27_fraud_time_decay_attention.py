"""Card-fraud scoring over a customer's transaction stream with time-aware causal attention.

Each transaction is scored online from itself and the customer's earlier transactions. Every
head adds a learned, non-positive decay on log(1 + elapsed seconds) between the two
transactions to its logits, so stale history counts less. Streams are right-padded.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TimeDecayAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.decay = nn.Parameter(torch.linspace(-1.0, 1.0, heads))

    def forward(self, x, ts, valid):  # ts: (B, T) seconds, valid: (B, T) bool
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
        gap = (ts.unsqueeze(2) - ts.unsqueeze(1)).clamp(min=0)  # (B, Tq, Tk)
        bias = -F.softplus(self.decay).view(1, -1, 1, 1) * torch.log1p(gap).unsqueeze(1)
        future = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        blocked = future | ~valid[:, None, None, :]
        bias = bias.masked_fill(blocked, float("-inf"))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.proj(out.transpose(1, 2).reshape(B, T, d))


class FraudScorer(nn.Module):
    def __init__(self, n_mcc=50, d=32, heads=4, depth=2):
        super().__init__()
        self.mcc = nn.Embedding(n_mcc, d)
        self.num = nn.Linear(3, d)
        self.blocks = nn.ModuleList()
        for _ in range(depth):
            self.blocks.append(nn.ModuleList([nn.LayerNorm(d), TimeDecayAttention(d, heads), nn.LayerNorm(d),
                                              nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))]))
        self.head = nn.Linear(d, 1)

    def forward(self, mcc, amount, ts, valid):
        numeric = torch.stack([torch.log1p(amount), torch.sin(ts / 86400 * 2 * math.pi), torch.cos(ts / 86400 * 2 * math.pi)], -1)
        x = self.mcc(mcc) + self.num(numeric)
        for n1, attn, n2, ff in self.blocks:
            x = x + attn(n1(x), ts, valid)
            x = x + ff(n2(x))
        return self.head(x).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = FraudScorer().eval()
    B, T = 3, 14
    mcc = torch.randint(0, 50, (B, T))
    amount = torch.rand(B, T) * 300
    ts = torch.cumsum(torch.rand(B, T) * 7200, dim=1)
    valid = torch.ones(B, T, dtype=torch.bool)
    valid[1, 9:] = False
    valid[2, 4:] = False
    return model, (mcc, amount, ts, valid)
