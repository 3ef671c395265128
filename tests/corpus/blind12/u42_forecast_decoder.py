"""Multi-horizon load forecaster: a transformer encoder over the history and a decoder of
learned horizon queries (one per future step) that cross-attend to the encoded history
(DETR-style queries, as in several direct multi-step forecasters).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.h, self.dk = n_heads, d_model // n_heads
        self.dropout = dropout
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)
        self.o = nn.Linear(d_model, d_model)

    def forward(self, queries, memory):
        B, Q, D = queries.shape
        S = memory.size(1)
        q = self.q(queries).view(B, Q, self.h, self.dk).transpose(1, 2)
        k, v = self.kv(memory).view(B, S, 2, self.h, self.dk).permute(2, 0, 3, 1, 4)
        attn = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(self.dk), dim=-1)
        attn = F.dropout(attn, p=self.dropout)
        out = (attn @ v).transpose(1, 2).reshape(B, Q, D)
        return self.o(out)


class Forecaster(nn.Module):
    def __init__(self, n_features=4, d_model=32, n_heads=4, horizon=6, history=16):
        super().__init__()
        self.inp = nn.Linear(n_features, d_model)
        self.pos = nn.Parameter(torch.randn(1, history, d_model) * 0.02)
        enc = nn.TransformerEncoderLayer(d_model, n_heads, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc, 2, enable_nested_tensor=False)
        self.horizon_queries = nn.Parameter(torch.randn(1, horizon, d_model) * 0.5)
        self.cross = CrossAttention(d_model, n_heads)
        self.norm = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, d_model))
        self.out = nn.Linear(d_model, 1)

    def forward(self, history):
        memory = self.encoder(self.inp(history) + self.pos[:, : history.size(1)])
        q = self.horizon_queries.expand(history.size(0), -1, -1)
        y = self.norm(q + self.cross(q, memory))
        y = y + self.ff(y)
        return self.out(y).squeeze(-1)            # (B, horizon)


def build():
    torch.manual_seed(42)
    model = Forecaster().eval()
    return model, (torch.randn(2, 16, 4),)
