import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenEmbedding(nn.Module):
    def __init__(self, c_in, d_model):
        super().__init__()
        self.conv = nn.Conv1d(c_in, d_model, kernel_size=3, padding=1, padding_mode="circular")

    def forward(self, x):
        return self.conv(x.permute(0, 2, 1)).transpose(1, 2)


class FeatureNorm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d_model))
        self.beta = nn.Parameter(torch.zeros(d_model))
        self.eps = eps

    def forward(self, x):  # x: [B, L, D]
        mu = x.mean(dim=1, keepdim=True)
        var = (x - mu).pow(2).mean(dim=1, keepdim=True)
        return self.gamma * (x - mu) / torch.sqrt(var + self.eps) + self.beta


class FullAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.05):
        super().__init__()
        self.h = n_heads
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        B, L, D = x.shape
        E = D // self.h
        q = self.q(x).view(B, L, self.h, E)
        k = self.k(x).view(B, L, self.h, E)
        v = self.v(x).view(B, L, self.h, E)
        scores = torch.einsum("blhe,bshe->bhls", q, k)
        A = self.drop(torch.softmax(scores / math.sqrt(E), dim=-1))
        V = torch.einsum("bhls,bshd->blhd", A, v)
        return self.o(V.reshape(B, L, D))


class DistilConv(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.down = nn.Conv1d(c, c, kernel_size=3, padding=1, padding_mode="circular")
        self.norm = nn.BatchNorm1d(c)
        self.act = nn.ELU()
        self.pool = nn.MaxPool1d(kernel_size=3, stride=2, padding=1)

    def forward(self, x):
        x = self.pool(self.act(self.norm(self.down(x.permute(0, 2, 1)))))
        return x.transpose(1, 2)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout=0.05):
        super().__init__()
        self.attn = FullAttention(d_model, n_heads, dropout)
        self.conv1 = nn.Conv1d(d_model, d_ff, 1)
        self.conv2 = nn.Conv1d(d_ff, d_model, 1)
        self.norm1 = FeatureNorm(d_model)
        self.norm2 = FeatureNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x):
        x = self.norm1(x + self.drop(self.attn(x)))
        y = self.drop(F.gelu(self.conv1(x.transpose(-1, 1))))
        y = self.drop(self.conv2(y).transpose(-1, 1))
        return self.norm2(x + y)


class InformerEncoder(nn.Module):
    def __init__(self, c_in=4, d_model=32, n_heads=4, e_layers=3, d_ff=64, out_dim=4):
        super().__init__()
        self.embed = TokenEmbedding(c_in, d_model)
        self.pos = nn.Parameter(torch.randn(1, 64, d_model) * 0.02)
        self.layers = nn.ModuleList(EncoderLayer(d_model, n_heads, d_ff) for _ in range(e_layers))
        self.distil = nn.ModuleList(DistilConv(d_model) for _ in range(e_layers - 1))
        self.norm = nn.LayerNorm(d_model)
        self.proj = nn.Linear(d_model, out_dim)

    def forward(self, x_enc):
        x = self.embed(x_enc) + self.pos[:, : x_enc.size(1)]
        for layer, conv in zip(self.layers, self.distil):
            x = conv(layer(x))
        x = self.layers[-1](x)
        return self.proj(self.norm(x))


def build():
    torch.manual_seed(0)
    model = InformerEncoder().eval()
    x = torch.randn(2, 16, 4).cumsum(1) * 0.3
    return model, (x,)
