"""Hyena operator (Poli et al., 2023) for an autoregressive LM, order 2.

The long convolution uses an implicit filter: a small MLP over sinusoidal position features,
windowed by an exponential decay. The filter is as long as the sequence, so it is applied in
the frequency domain in O(L log L).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def fftconv(u, k, bias):
    """u: (B, D, L) signal, k: (D, L) filter -> causal convolution (B, D, L)."""
    seqlen = u.shape[-1]
    fft_size = seqlen
    k_f = torch.fft.rfft(k, n=fft_size) / fft_size
    u_f = torch.fft.rfft(u, n=fft_size)
    y = torch.fft.irfft(u_f * k_f, n=fft_size, norm="forward")[..., :seqlen]
    return y + u * bias[:, None]


class PositionalFeatures(nn.Module):
    def __init__(self, emb_dim, max_len):
        super().__init__()
        t = torch.linspace(0, 1, max_len)[:, None]
        bands = (emb_dim - 1) // 2
        f = torch.linspace(1e-4, bands - 1, bands)[None]
        w = 2 * math.pi * torch.arange(max_len)[:, None] / max_len
        self.register_buffer("z", torch.cat([t, torch.cos(f * w), torch.sin(f * w)], dim=-1))

    def forward(self, L):
        return self.z[:L]


class HyenaFilter(nn.Module):
    def __init__(self, d_model, max_len, emb_dim=5, order=16):
        super().__init__()
        self.pos = PositionalFeatures(emb_dim, max_len)
        self.mlp = nn.Sequential(nn.Linear(emb_dim, order), nn.SiLU(), nn.Linear(order, order), nn.SiLU(),
                                 nn.Linear(order, d_model, bias=False))
        self.register_buffer("decay", torch.linspace(0.3, 3.0, d_model)[None])
        self.bias = nn.Parameter(torch.randn(d_model))

    def forward(self, L):
        z = self.pos(L)                                       # (L, emb)
        t = torch.linspace(0, 1, L)[:, None]
        h = self.mlp(z) * torch.exp(-t * self.decay)          # (L, D)
        return h.transpose(0, 1)                              # (D, L)


class HyenaOperator(nn.Module):
    def __init__(self, d_model, max_len, order=2, short_k=3):
        super().__init__()
        self.order = order
        self.in_proj = nn.Linear(d_model, (order + 1) * d_model)
        self.short = nn.Conv1d((order + 1) * d_model, (order + 1) * d_model, short_k,
                               padding=short_k - 1, groups=(order + 1) * d_model)
        self.filters = nn.ModuleList([HyenaFilter(d_model, max_len) for _ in range(order)])
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, u):
        L = u.size(1)
        z = self.in_proj(u).transpose(1, 2)
        z = self.short(z)[..., :L]
        *gates, v = z.chunk(self.order + 1, dim=1)
        for gate, filt in zip(gates, self.filters):
            v = fftconv(v, filt(L), filt.bias) * gate
        return self.out_proj(v.transpose(1, 2))


class HyenaLM(nn.Module):
    def __init__(self, vocab=40, d_model=16, max_len=16, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.mixers = nn.ModuleList([HyenaOperator(d_model, max_len) for _ in range(depth)])
        self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 32), nn.GELU(), nn.Linear(32, d_model))
                                   for _ in range(depth)])
        self.n1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(depth)])
        self.n2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(depth)])
        self.head = nn.Linear(d_model, vocab)

    def forward(self, ids):
        x = self.emb(ids)
        for mix, mlp, n1, n2 in zip(self.mixers, self.mlps, self.n1, self.n2):
            x = x + mix(n1(x))
            x = x + mlp(n2(x))
        return self.head(x)


def build():
    torch.manual_seed(21)
    model = HyenaLM().eval()
    return model, (torch.randint(0, 40, (2, 16)),)
