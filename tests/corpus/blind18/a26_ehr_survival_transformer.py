"""Discrete-time survival model over EHR visits (transformer encoder + hazard head).

Visit embeddings are the sum of code-bag, visit-type and elapsed-time features; a pre-norm
encoder contextualises them and the last visit's state gives per-interval hazards, from which
the survival curve S(t) = prod_{k<=t} (1 - h_k) is read off.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class EHRLayerNorm(nn.Module):
    """LayerNorm written out so it can be exported to the hospital's inference runtime."""

    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True)
        return self.gamma * (x - mu) / torch.sqrt(var + self.eps) + self.beta


class VisitEncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = EHRLayerNorm(d), EHRLayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(q.size(-1)), dim=-1)
        x = x + self.o((a @ v).transpose(1, 2).reshape(B, T, d))
        return x + self.ff(self.norm2(x))


class SurvivalTransformer(nn.Module):
    def __init__(self, n_codes=80, n_types=4, d=32, heads=4, depth=2, intervals=10):
        super().__init__()
        self.codes = nn.EmbeddingBag(n_codes, d, mode="sum")
        self.visit_type = nn.Embedding(n_types, d)
        self.elapsed = nn.Linear(1, d)
        self.layers = nn.ModuleList([VisitEncoderLayer(d, heads) for _ in range(depth)])
        self.norm = EHRLayerNorm(d)
        self.hazard = nn.Linear(d, intervals)

    def forward(self, code_ids, visit_type, days_since_first):
        B, T, K = code_ids.shape
        bag = self.codes(code_ids.view(B * T, K)).view(B, T, -1)
        x = bag + self.visit_type(visit_type) + self.elapsed(torch.log1p(days_since_first).unsqueeze(-1))
        for layer in self.layers:
            x = layer(x)
        h = torch.sigmoid(self.hazard(self.norm(x[:, -1])))
        return torch.cumprod(1 - h, dim=-1)


def build():
    torch.manual_seed(0)
    model = SurvivalTransformer().eval()
    code_ids = torch.randint(0, 80, (3, 8, 5))
    visit_type = torch.randint(0, 4, (3, 8))
    days = torch.cumsum(torch.rand(3, 8) * 90, dim=1)
    return model, (code_ids, visit_type, days)
