"""ResFormer (Zhou et al. 2024): value residual learning in a decoder-only LM.

Every layer after the first mixes its values with the first layer's values,
V_n <- lambda_1 * V_n + lambda_2 * V_1, which eases the information flow that plain hidden-state
residuals lose in deep stacks.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ValueResidualAttention(nn.Module):
    def __init__(self, dim, heads, attn_pdrop=0.1, first=False):
        super().__init__()
        self.h, self.first, self.attn_pdrop = heads, first, attn_pdrop
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        if not first:
            self.lambdas = nn.Parameter(torch.tensor([0.5, 0.5]))
        self.resid_drop = nn.Dropout(0.1)

    def forward(self, x, v1=None):
        B, T, D = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        if self.first:
            v1 = v
        else:
            v = self.lambdas[0] * v + self.lambdas[1] * v1
        scores = q @ k.transpose(-2, -1) / math.sqrt(D // self.h)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        scores = scores.masked_fill(~causal, float("-inf"))
        attn = F.dropout(scores.softmax(dim=-1), self.attn_pdrop)
        out = (attn @ v).transpose(1, 2).reshape(B, T, D)
        return self.resid_drop(self.wo(out)), v1


class ResFormer(nn.Module):
    def __init__(self, vocab=96, dim=32, heads=4, depth=3, max_len=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList([ValueResidualAttention(dim, heads, first=(i == 0)) for i in range(depth)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
                                  for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        v1 = None
        for attn, ln1, ln2, mlp in zip(self.attn, self.ln1, self.ln2, self.mlp):
            a, v1 = attn(ln1(x), v1)
            x = x + a
            x = x + mlp(ln2(x))
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = ResFormer().eval()
    return model, (torch.randint(0, 96, (2, 20)),)
