"""StreamingLLM decoding: attention sinks plus a rolling window, positions inside the cache.

Tokens are decoded one at a time. The cache keeps the first `n_sink` tokens for ever and the
last `window` tokens; older tokens are evicted. Keys are cached before rotation and rotary
positions are re-assigned by slot in the cache (0 .. len-1), the query taking the last slot,
as in the StreamingLLM paper, so positions never exceed the cache size. What a token sees is
by design limited to the sinks and the window.
"""
import math

import torch
import torch.nn as nn


def rope(x, pos, base=10000.0):
    dh = x.size(-1)
    inv = 1.0 / base ** (torch.arange(0, dh, 2, dtype=torch.float32) / dh)
    ang = pos[:, None].float() * inv
    cos, sin = torch.cat([ang, ang], -1).cos(), torch.cat([ang, ang], -1).sin()
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat([-x2, x1], dim=-1) * sin


class SinkWindowAttention(nn.Module):
    def __init__(self, d=32, heads=4, n_sink=2, window=4):
        super().__init__()
        self.h, self.dh, self.n_sink, self.window = heads, d // heads, n_sink, window
        self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))

    def step(self, x_t, cache):
        B, D = x_t.shape
        q = self.q(x_t).view(B, self.h, 1, self.dh)
        k = self.k(x_t).view(B, self.h, 1, self.dh)
        v = self.v(x_t).view(B, self.h, 1, self.dh)
        ks, vs = cache
        ks, vs = torch.cat([ks, k], dim=2), torch.cat([vs, v], dim=2)
        if ks.size(2) > self.n_sink + self.window:                          # evict the oldest non-sink
            ks = torch.cat([ks[:, :, :self.n_sink], ks[:, :, -self.window:]], dim=2)
            vs = torch.cat([vs[:, :, :self.n_sink], vs[:, :, -self.window:]], dim=2)
        L = ks.size(2)
        slots = torch.arange(L, device=x_t.device)
        qr = rope(q, slots[-1:])
        kr = rope(ks, slots)
        w = (qr @ kr.transpose(-1, -2) / math.sqrt(self.dh)).softmax(-1)   # the query is the newest slot
        out = (w @ vs).reshape(B, D)
        return self.o(out), (ks, vs)


class StreamingLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.ln1, self.ln2, self.ln_f = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = SinkWindowAttention(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        B, T = input_ids.shape
        h, dh = self.attn.h, self.attn.dh
        cache = (torch.zeros(B, h, 0, dh), torch.zeros(B, h, 0, dh))
        outs = []
        for t in range(T):
            x = self.tok(input_ids[:, t])
            a, cache = self.attn.step(self.ln1(x), cache)
            x = x + a
            x = x + self.mlp(self.ln2(x))
            outs.append(self.head(self.ln_f(x)))
        return torch.stack(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = StreamingLM().eval()
    return model, (torch.randint(0, 64, (3, 12)),)
