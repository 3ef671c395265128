import math

import torch
import torch.nn as nn


class AttnLayer(nn.Module):
    def __init__(self, d_model, nhead):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, nhead, dropout=0.0)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x):
        B, T, C = x.shape
        h = x.view(T, B, C)
        a, _ = self.attn(h, h, h, need_weights=False)
        a = a.view(B, T, C)
        x = self.ln1(x + a)
        return self.ln2(x + self.mlp(x))


class FrameTagger(nn.Module):
    def __init__(self, feat_dim=12, d_model=32, nhead=4, nlayers=2, ntags=6, max_len=64):
        super().__init__()
        self.inp = nn.Linear(feat_dim, d_model)
        self.pos = nn.Parameter(torch.randn(1, max_len, d_model) * 0.1)
        self.layers = nn.ModuleList([AttnLayer(d_model, nhead) for _ in range(nlayers)])
        self.out = nn.Linear(d_model, ntags)

    def forward(self, feats):
        x = self.inp(feats) + self.pos[:, : feats.size(1)]
        for layer in self.layers:
            x = layer(x)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = FrameTagger().eval()
    feats = torch.randn(3, 10, 12)
    return model, (feats,)
