"""RWKV-4-style block: token shift, numerically stable WKV recurrence (time mixing) and channel mixing."""
import torch
import torch.nn as nn


def wkv(w, u, k, v):
    """w, u: (C,); k, v: (B, T, C). Running weighted average with exponential decay, max-shifted for stability."""
    B, T, C = k.shape
    aa = torch.zeros(B, C)
    bb = torch.zeros(B, C)
    pp = torch.full((B, C), -1e38)
    out = []
    for t in range(T):
        kt, vt = k[:, t], v[:, t]
        ww = u + kt
        p = torch.maximum(pp, ww)
        e1, e2 = torch.exp(pp - p), torch.exp(ww - p)
        out.append((e1 * aa + e2 * vt) / (e1 * bb + e2))
        ww = pp + w
        p = torch.maximum(ww, kt)
        e1, e2 = torch.exp(ww - p), torch.exp(kt - p)
        aa, bb, pp = e1 * aa + e2 * vt, e1 * bb + e2, p
    return torch.stack(out, dim=1)


class TimeMix(nn.Module):
    def __init__(self, dim, layer_id, n_layer):
        super().__init__()
        ratio = 1 - layer_id / n_layer
        ddd = torch.arange(dim) / dim
        self.time_decay = nn.Parameter(-5 + 8 * (torch.arange(dim) / (dim - 1)) ** 0.7)
        self.time_first = nn.Parameter(torch.ones(dim) * 0.5)
        self.time_mix_k = nn.Parameter(ddd ** ratio)
        self.time_mix_v = nn.Parameter(ddd ** ratio + 0.3)
        self.time_mix_r = nn.Parameter(ddd ** (0.5 * ratio))
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.key, self.value, self.receptance = (nn.Linear(dim, dim, bias=False) for _ in range(3))
        self.output = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        xx = self.time_shift(x)
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xv = x * self.time_mix_v + xx * (1 - self.time_mix_v)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        k, v, sr = self.key(xk), self.value(xv), torch.sigmoid(self.receptance(xr))
        return self.output(sr * wkv(-torch.exp(self.time_decay), self.time_first, k, v))


class ChannelMix(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.time_mix_k = nn.Parameter(torch.full((dim,), 0.6))
        self.time_mix_r = nn.Parameter(torch.full((dim,), 0.4))
        self.key = nn.Linear(dim, 4 * dim, bias=False)
        self.receptance = nn.Linear(dim, dim, bias=False)
        self.value = nn.Linear(4 * dim, dim, bias=False)

    def forward(self, x):
        xx = self.time_shift(x)
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        return torch.sigmoid(self.receptance(xr)) * self.value(torch.square(torch.relu(self.key(xk))))


class RWKV(nn.Module):
    def __init__(self, vocab=50, dim=32, n_layer=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.ln0 = nn.LayerNorm(dim)
        self.blocks = nn.ModuleList(
            nn.ModuleDict(dict(ln1=nn.LayerNorm(dim), att=TimeMix(dim, i, n_layer), ln2=nn.LayerNorm(dim), ffn=ChannelMix(dim)))
            for i in range(n_layer)
        )
        self.ln_out = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.ln0(self.emb(idx))
        for b in self.blocks:
            x = x + b["att"](b["ln1"](x))
            x = x + b["ffn"](b["ln2"](x))
        return self.head(self.ln_out(x))


def build():
    torch.manual_seed(0)
    return RWKV().eval(), (torch.randint(0, 50, (2, 12)),)
