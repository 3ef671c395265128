"""XLNet-style permutation language model with two-stream self-attention.

`rank[b, i]` is the place of position i in sample b's factorization order. The content
stream h sees the tokens up to and including its own place in the order; the query stream
g, which makes the prediction, knows only its position and must not see its own token.
A learned memory slot that everyone may read stands in for Transformer-XL's memory.
"""
import math

import torch
import torch.nn as nn


class TwoStreamLayer(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q = nn.Linear(d, d, bias=False)
        self.k = nn.Linear(d, d, bias=False)
        self.v = nn.Linear(d, d, bias=False)
        self.o = nn.Linear(d, d, bias=False)
        self.mem = nn.Parameter(torch.randn(1, 1, d))
        self.ln_h, self.ln_g = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d))
        self.ln_fh, self.ln_fg = nn.LayerNorm(d), nn.LayerNorm(d)

    def split(self, t):
        B, L, _ = t.shape
        return t.view(B, L, self.h, self.dh).transpose(1, 2)

    def attend(self, query_in, kv_in, allowed):
        B, T, D = query_in.shape
        q = self.split(self.q(query_in))
        k, v = self.split(self.k(kv_in)), self.split(self.v(kv_in))
        s = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        s = s.masked_fill(~allowed[:, None], float("-inf"))
        out = s.softmax(-1) @ v
        return self.o(out.transpose(1, 2).reshape(B, T, D))

    def forward(self, h, g, content_mask, query_mask):
        B = h.size(0)
        kv = torch.cat([self.mem.expand(B, -1, -1), h], dim=1)
        h_new = self.ln_h(h + self.attend(h, kv, content_mask))
        g_new = self.ln_g(g + self.attend(g, kv, query_mask))
        h_new = self.ln_fh(h_new + self.ff(h_new))
        g_new = self.ln_fg(g_new + self.ff(g_new))
        return h_new, g_new


class PermutationLM(nn.Module):
    def __init__(self, vocab=40, d=32, n_layers=2, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.query_emb = nn.Parameter(torch.randn(1, 1, d) * 0.5)
        self.layers = nn.ModuleList(TwoStreamLayer(d) for _ in range(n_layers))
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, input_ids, rank):
        B, T = input_ids.shape
        pos = self.pos(torch.arange(T, device=input_ids.device))
        h = self.tok(input_ids) + pos
        g = (self.query_emb + pos).expand(B, -1, -1)
        before_or_self = rank[:, None, :] <= rank[:, :, None]      # key j not after query i
        mem_col = torch.ones(B, T, 1, dtype=torch.bool, device=input_ids.device)
        content_mask = torch.cat([mem_col, before_or_self], dim=-1)
        query_mask = torch.cat([mem_col, before_or_self], dim=-1)
        for layer in self.layers:
            h, g = layer(h, g, content_mask, query_mask)
        return self.lm_head(g)


def build():
    torch.manual_seed(0)
    model = PermutationLM().eval()
    B, T = 2, 10
    input_ids = torch.randint(0, 40, (B, T))
    rank = torch.stack([torch.randperm(T) for _ in range(B)])
    return model, (input_ids, rank)
