"""Decoder-only UL2 model with mode switching (Tay et al., 2022).

Every example starts with a paradigm token: [R] (regular span corruption), [X] (extreme
span corruption) or [S] (sequential / prefix continuation). For R and X the corrupted input
is a bidirectional prefix and the targets are decoded causally after it. For S only the mode
token itself is treated as prefix, i.e. the row is a plain causal LM over the continuation.
"""
import math

import torch
import torch.nn as nn

MODE_R, MODE_X, MODE_S = 0, 1, 2


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)

    def forward(self, x, bias):
        b, t, d = x.shape
        h = self.heads
        q = self.wq(x).reshape(b, t, h, d // h)
        k = self.wk(x).reshape(b, t, h, d // h)
        v = self.wv(x).reshape(b, t, h, d // h)
        logits = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d // h)
        weights = torch.softmax(logits + bias, dim=-1)
        out = torch.einsum("bhqk,bkhd->bqhd", weights, v)
        return self.wo(out.reshape(b, t, d))


class UL2Decoder(nn.Module):
    def __init__(self, vocab=80, d=32, heads=4, layers=2, max_len=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.attn = nn.ModuleList([SelfAttention(d, heads) for _ in range(layers)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, d)) for _ in range(layers)])
        self.n1 = nn.ModuleList([RMSNorm(d) for _ in range(layers)])
        self.n2 = nn.ModuleList([RMSNorm(d) for _ in range(layers)])
        self.norm = RMSNorm(d)
        self.out = nn.Linear(d, vocab, bias=False)

    @staticmethod
    def attention_bias(mode, input_len, t):
        """(B, 1, T, T) additive bias: 0 where allowed, -inf elsewhere."""
        prefix = torch.where(mode == MODE_S, torch.ones_like(input_len), input_len)
        q = torch.arange(t, device=mode.device)[:, None]
        k = torch.arange(t, device=mode.device)[None, :]
        allowed = (k <= q) | (k < prefix[:, None, None])
        zero = torch.zeros((), device=mode.device)
        return torch.where(allowed, zero, float("-inf"))[:, None]

    def forward(self, tokens, mode, input_len):
        t = tokens.size(1)
        bias = self.attention_bias(mode, input_len, t)
        x = self.embed(tokens) + self.pos.weight[:t]
        for attn, mlp, n1, n2 in zip(self.attn, self.mlp, self.n1, self.n2):
            x = x + attn(n1(x), bias)
            x = x + mlp(n2(x))
        return self.out(self.norm(x))


def build():
    torch.manual_seed(8)
    model = UL2Decoder().eval()
    tokens = torch.randint(3, 80, (3, 14))
    mode = torch.tensor([MODE_R, MODE_S, MODE_X])
    tokens[:, 0] = mode  # the paradigm token
    input_len = torch.tensor([6, 4, 8])
    return model, (tokens, mode, input_len)
