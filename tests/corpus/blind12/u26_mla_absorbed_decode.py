"""Multi-head latent attention (DeepSeek-V2) with the compressed cache and weight absorption.

Only the latent c_kv (d_c per token) and one shared rotary key (d_rope per token) are cached.
Prefill decompresses keys and values per head; decoding absorbs W_uk into the query and W_uv
into the output so attention runs directly against the latent cache. Scores are scaled by
1/sqrt(d_nope + d_rope), the per-head query/key width, in both paths.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def rope(x, pos, base=10000.0):
    # x: (..., T, d) with pos (T,)
    d = x.size(-1)
    inv = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float32) / d)
    ang = pos[:, None].float() * inv[None]
    cos, sin = ang.cos(), ang.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


class MLA(nn.Module):
    def __init__(self, d=32, heads=4, d_c=16, d_nope=8, d_rope=4, d_v=8):
        super().__init__()
        self.h, self.d_c, self.d_nope, self.d_rope, self.d_v = heads, d_c, d_nope, d_rope, d_v
        self.wq = nn.Linear(d, heads * (d_nope + d_rope), bias=False)
        self.w_dkv = nn.Linear(d, d_c, bias=False)
        self.w_kr = nn.Linear(d, d_rope, bias=False)
        self.kv_norm = nn.RMSNorm(d_c)
        self.w_uk = nn.Parameter(torch.randn(heads, d_nope, d_c) / math.sqrt(d_c))
        self.w_uv = nn.Parameter(torch.randn(heads, d_v, d_c) / math.sqrt(d_c))
        self.wo = nn.Linear(heads * d_v, d, bias=False)
        self.scale = 1.0 / math.sqrt(d_nope + d_rope)

    def project(self, x, pos):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.h, -1).transpose(1, 2)
        q_nope, q_rope = q.split([self.d_nope, self.d_rope], dim=-1)
        q_rope = rope(q_rope, pos)
        c_kv = self.kv_norm(self.w_dkv(x))                    # (B, T, d_c)
        k_rope = rope(self.w_kr(x), pos)                      # (B, T, d_rope), shared by heads
        return q_nope, q_rope, c_kv, k_rope

    def prefill(self, x, pos):
        q_nope, q_rope, c_kv, k_rope = self.project(x, pos)
        k_nope = torch.einsum("btc,hnc->bhtn", c_kv, self.w_uk)
        v = torch.einsum("btc,hvc->bhtv", c_kv, self.w_uv)
        k = torch.cat([k_nope, k_rope[:, None].expand(-1, self.h, -1, -1)], dim=-1)
        q = torch.cat([q_nope, q_rope], dim=-1)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.scale)
        return self.wo(o.transpose(1, 2).flatten(2)), (c_kv, k_rope)

    def decode(self, x, pos, cache):
        q_nope, q_rope, c_new, kr_new = self.project(x, pos)
        c_kv = torch.cat([cache[0], c_new], dim=1)
        k_rope = torch.cat([cache[1], kr_new], dim=1)
        q_lat = torch.einsum("bhtn,hnc->bhtc", q_nope, self.w_uk)      # absorb W_uk
        scores = torch.einsum("bhtc,bsc->bhts", q_lat, c_kv) + torch.einsum("bhtr,bsr->bhts", q_rope, k_rope)
        attn = (scores * self.scale).softmax(dim=-1)
        o_lat = torch.einsum("bhts,bsc->bhtc", attn, c_kv)
        o = torch.einsum("bhtc,hvc->bhtv", o_lat, self.w_uv)            # absorb W_uv
        return self.wo(o.transpose(1, 2).flatten(2)), (c_kv, k_rope)


class MLALM(nn.Module):
    def __init__(self, vocab=50, d=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.attn = nn.ModuleList([MLA(d) for _ in range(layers)])
        self.n1 = nn.ModuleList([nn.RMSNorm(d) for _ in range(layers)])
        self.n2 = nn.ModuleList([nn.RMSNorm(d) for _ in range(layers)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, d)) for _ in range(layers)])
        self.norm = nn.RMSNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def run(self, ids, start, caches):
        pos = torch.arange(start, start + ids.size(1))
        x = self.emb(ids)
        new = []
        for i, (attn, n1, n2, mlp) in enumerate(zip(self.attn, self.n1, self.n2, self.mlp)):
            a, c = attn.prefill(n1(x), pos) if caches is None else attn.decode(n1(x), pos, caches[i])
            x = x + a
            x = x + mlp(n2(x))
            new.append(c)
        return self.head(self.norm(x)), new

    def forward(self, ids, prefill_len):
        logits, caches = self.run(ids[:, :prefill_len], 0, None)
        out = [logits]
        for t in range(prefill_len, ids.size(1)):
            step, caches = self.run(ids[:, t:t + 1], t, caches)
            out.append(step)
        return torch.cat(out, dim=1)


def build():
    torch.manual_seed(26)
    model = MLALM().eval()
    ids = torch.randint(0, 50, (2, 10))
    return model, (ids, 5)
