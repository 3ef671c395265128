"""BLOOM-style ALiBi decoder with a KV cache: prefill of the first `prefill` tokens, then one
token per step.

The ALiBi bias is built from absolute key positions only (slope * k_pos): for a fixed query the
softmax does not change when a constant is added to a row, so slope * (k_pos - q_pos) and
slope * k_pos give identical weights, with or without a cache. Queries at absolute positions
past..past+Tq-1 may see keys up to their own position.
"""
import math

import torch
import torch.nn as nn


def get_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return torch.tensor([start * start ** i for i in range(n)])


class AlibiAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.dense = nn.Linear(d, d)
        self.register_buffer("slopes", get_slopes(heads))

    def forward(self, x, cache):
        B, Tq, D = x.shape
        q, k, v = self.qkv(x).view(B, Tq, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k = torch.cat([cache[0], k], dim=2)
            v = torch.cat([cache[1], v], dim=2)
        Tk = k.size(2)
        past = Tk - Tq
        k_pos = torch.arange(Tk, device=x.device)
        q_pos = torch.arange(past, Tk, device=x.device)
        alibi = self.slopes[:, None, None] * k_pos[None, None, :].float()           # (H, 1, Tk)
        scores = torch.baddbmm(alibi.expand(-1, Tq, -1).repeat(B, 1, 1),
                               q.reshape(B * self.h, Tq, self.dh),
                               k.reshape(B * self.h, Tk, self.dh).transpose(1, 2),
                               beta=1.0, alpha=1.0 / math.sqrt(self.dh)).view(B, self.h, Tq, Tk)
        scores = scores.masked_fill(k_pos[None, :] > q_pos[:, None], torch.finfo(scores.dtype).min)
        out = scores.softmax(-1) @ v
        return self.dense(out.transpose(1, 2).reshape(B, Tq, D)), (k, v)


class BloomLikeLM(nn.Module):
    def __init__(self, vocab=64, d=32, n_layers=2, prefill=5):
        super().__init__()
        self.prefill = prefill
        self.emb = nn.Embedding(vocab, d)
        self.emb_ln = nn.LayerNorm(d)
        self.attn = nn.ModuleList(AlibiAttention(d) for _ in range(n_layers))
        self.mlp = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(n_layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def run(self, ids, caches):
        x = self.emb_ln(self.emb(ids))
        new = []
        for attn, mlp, ln1, ln2, cache in zip(self.attn, self.mlp, self.ln1, self.ln2, caches):
            a, kv = attn(ln1(x), cache)
            x = x + a
            x = x + mlp(ln2(x))
            new.append(kv)
        return self.head(self.ln_f(x)), new

    def forward(self, input_ids):
        T = input_ids.size(1)
        logits, caches = self.run(input_ids[:, :self.prefill], [None] * len(self.attn))
        outs = [logits]
        for t in range(self.prefill, T):
            step, caches = self.run(input_ids[:, t:t + 1], caches)
            outs.append(step)
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = BloomLikeLM().eval()
    return model, (torch.randint(0, 64, (3, 10)),)
