"""Transformer-XL style segment recurrence with relative positions.

The input is processed in segments of `seg_len`; each layer keeps the previous segment's
hidden states (detached) as memory. Queries of the current segment attend to [memory;
segment]: current token i sits at key index M + i, so it may see keys j <= M + i. Scores use
Transformer-XL's decomposition, content (q + u)·k plus position (q + v)·R[i + M - j], with R
indexed by the relative distance directly (no shift trick).
"""
import math

import torch
import torch.nn as nn


class RelMemAttention(nn.Module):
    def __init__(self, d=32, heads=4, max_dist=24):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.rel = nn.Embedding(max_dist, d)
        self.r_proj = nn.Linear(d, d, bias=False)
        self.u = nn.Parameter(torch.zeros(heads, self.dh))
        self.v = nn.Parameter(torch.randn(heads, self.dh) * 0.1)

    def forward(self, x, mem):
        B, T, D = x.shape
        M = mem.size(1)
        cat = torch.cat([mem, x], dim=1)
        q = self.qkv(x)[..., :D].view(B, T, self.h, self.dh)
        _, k, v = self.qkv(cat).view(B, M + T, 3, self.h, self.dh).unbind(2)
        i = torch.arange(T)[:, None] + M
        j = torch.arange(M + T)[None, :]
        dist = (i - j).clamp(min=0)                                          # (T, M+T)
        R = self.r_proj(self.rel(dist)).view(T, M + T, self.h, self.dh)
        content = torch.einsum("bihd,bjhd->bhij", q + self.u, k)
        position = torch.einsum("bihd,ijhd->bhij", q + self.v, R)
        scores = (content + position) / math.sqrt(self.dh)
        scores = scores.masked_fill(j > i, float("-inf"))
        out = torch.einsum("bhij,bjhd->bihd", scores.softmax(-1), v).reshape(B, T, D)
        return self.o(out)


class XLLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.attn = RelMemAttention(d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, d))

    def forward(self, x, mem):
        x = self.ln1(x + self.attn(x, mem))
        return self.ln2(x + self.ff(x))


class TransformerXL(nn.Module):
    def __init__(self, vocab=64, d=32, n_layers=2, seg_len=5):
        super().__init__()
        self.seg_len = seg_len
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(XLLayer(d) for _ in range(n_layers))
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        B, T = input_ids.shape
        d = self.emb.embedding_dim
        mems = [torch.zeros(B, 0, d) for _ in self.layers]
        logits = []
        for s in range(0, T, self.seg_len):
            h = self.emb(input_ids[:, s:s + self.seg_len])
            new_mems = []
            for layer, mem in zip(self.layers, mems):
                new_mems.append(h.detach())
                h = layer(h, mem)
            mems = new_mems
            logits.append(self.head(h))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = TransformerXL().eval()
    return model, (torch.randint(0, 64, (2, 15)),)
