import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def forward(self, x, ctx, bias):
        B, Tq, D = x.shape
        Tk = ctx.size(1)
        q = self.q(x).reshape(B, Tq, self.h, -1).transpose(1, 2)
        k = self.k(ctx).reshape(B, Tk, self.h, -1).transpose(1, 2)
        v = self.v(ctx).reshape(B, Tk, self.h, -1).transpose(1, 2)
        s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)) + bias
        y = F.softmax(s, dim=-1) @ v
        return self.o(y.transpose(1, 2).reshape(B, Tq, D))


class PreNormDecoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln_self = nn.LayerNorm(d)
        self.self_attn = Attention(d, h)
        self.ln_cross = nn.LayerNorm(d)
        self.cross_attn = Attention(d, h)
        self.ln_ff = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))

    def forward(self, x, memory, self_bias, cross_bias):
        h = self.ln_self(x)
        x = x + self.self_attn(h, h, self_bias)
        x = x + self.cross_attn(self.ln_cross(x), memory, cross_bias)
        return x + self.ff(self.ln_ff(x))


class Decoder(nn.Module):
    def __init__(self, d=32, h=4, n=2):
        super().__init__()
        self.layers = nn.ModuleList([PreNormDecoderLayer(d, h) for _ in range(n)])
        self.ln = nn.LayerNorm(d)

    def forward(self, tgt, memory, src_mask):
        T = tgt.size(1)
        self_bias = torch.triu(torch.full((T, T), float("-inf"), device=tgt.device), diagonal=1)
        cross_bias = (1.0 - src_mask[:, None, None, :]) * -1e9
        x = tgt
        for layer in self.layers:
            x = layer(x, memory, self_bias, cross_bias)
        return self.ln(x)


def build():
    torch.manual_seed(0)
    model = Decoder().eval()
    tgt = torch.randn(2, 6, 32)
    memory = torch.randn(2, 8, 32)
    src_mask = torch.tensor([[1.0] * 8, [1.0] * 5 + [0.0] * 3])
    return model, (tgt, memory, src_mask)
