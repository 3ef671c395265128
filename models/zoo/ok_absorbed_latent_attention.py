"""One decode step of multi-head latent attention with the key up-projection absorbed into the query, `q_lat = einsum(q_nope, W_uk)`, scaled by 1/sqrt(d_nope + d_rope): correct.

DeepSeek-style MLA caches a small latent `c_kv` per position (plus one shared rotary key)
instead of per-head keys and values. At decode the per-head keys `c_kv @ W_uk^T` are never
built: `q_nope @ W_uk` maps the query into the latent space, so `q_lat . c_kv` equals
`q_nope . k_nope` while its product contracts the latent rank. The score still compares
d_nope + d_rope query features with as many key features, so that is the d_k of its scale; the
values are read in the latent too and mapped out by W_uv afterwards.
"""

import torch
import torch.nn as nn


EXPECTED: tuple[str, ...] = ()


def rotate(x, pos):
    half = x.shape[-1] // 2
    freqs = 10000.0 ** (-torch.arange(half) / half)
    angles = pos[:, None].float() * freqs                    # (T, half)
    cos, sin = angles.cos(), angles.sin()
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)


class AbsorbedMLADecode(nn.Module):
    def __init__(self, d_model: int = 32, n_heads: int = 2, rank: int = 8, d_nope: int = 8, d_rope: int = 4,
                 d_v: int = 8):
        super().__init__()
        self.h, self.d_nope, self.d_rope = n_heads, d_nope, d_rope
        self.wq = nn.Linear(d_model, n_heads * (d_nope + d_rope), bias=False)
        self.w_dkv = nn.Linear(d_model, rank + d_rope, bias=False)
        self.w_uk = nn.Parameter(torch.randn(n_heads, d_nope, rank) / rank ** 0.5)
        self.w_uv = nn.Parameter(torch.randn(n_heads, rank, d_v) / rank ** 0.5)
        self.wo = nn.Linear(n_heads * d_v, d_model, bias=False)
        self.scale = (d_nope + d_rope) ** -0.5

    def forward(self, x, c_kv_cache, k_rope_cache):
        # x: (B, 1, d_model), the new token; caches: (B, S, rank) and (B, S, d_rope), already rotated
        B, S = c_kv_cache.shape[:2]
        pos = torch.tensor([S])
        c_new, k_rope_new = self.w_dkv(x).split([c_kv_cache.shape[-1], self.d_rope], dim=-1)
        c_kv = torch.cat([c_kv_cache, c_new], dim=1)                                   # (B, S + 1, rank)
        k_rope = torch.cat([k_rope_cache, rotate(k_rope_new, pos)], dim=1)             # (B, S + 1, d_rope)
        q = self.wq(x).view(B, 1, self.h, self.d_nope + self.d_rope).transpose(1, 2)   # (B, H, 1, d_nope + d_rope)
        q_nope, q_rope = q.split([self.d_nope, self.d_rope], dim=-1)
        q_rope = rotate(q_rope, pos)
        q_lat = torch.einsum("bhqn,hnr->bhqr", q_nope, self.w_uk)                      # absorbed W_uk
        scores = torch.einsum("bhqr,bsr->bhqs", q_lat, c_kv) + torch.einsum("bhqe,bse->bhqs", q_rope, k_rope)
        weights = torch.softmax(scores * self.scale, dim=-1)
        o_lat = torch.einsum("bhqs,bsr->bhqr", weights, c_kv)
        o = torch.einsum("bhqr,hrv->bqhv", o_lat, self.w_uv)                           # absorbed W_uv
        return self.wo(o.reshape(B, 1, -1)), c_kv, k_rope


def build():
    torch.manual_seed(0)
    model = AbsorbedMLADecode().eval()
    S = 6
    prompt = torch.randn(2, S, 32)
    c_kv, k_rope = model.w_dkv(prompt).split([8, 4], dim=-1)
    k_rope = rotate(k_rope, torch.arange(S))
    return model, (torch.randn(2, 1, 32), c_kv.detach(), k_rope.detach())
