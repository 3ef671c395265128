"""Decoder LM with Cross-Layer Attention (CLA, Brandon et al., 2024) on top of grouped-query attention.

Layers come in pairs: the first layer of a pair projects keys and values, the second reuses
them (it only has a query projection), halving the KV cache. K/V are kept in the (B, T, H_kv, d)
layout the inference cache uses and converted to SDPA's (B, H, T, d) when attending.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rope(x, base=10000.0):
    T, d = x.size(1), x.size(-1)
    inv = base ** (-torch.arange(0, d, 2, device=x.device).float() / d)
    ang = torch.arange(T, device=x.device).float()[:, None] * inv
    cos, sin = ang.cos().repeat(1, 2)[:, None], ang.sin().repeat(1, 2)[:, None]
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat([-x2, x1], dim=-1) * sin


class CLAAttention(nn.Module):
    def __init__(self, dim, heads, kv_heads, produces_kv):
        super().__init__()
        self.heads, self.kv_heads, self.dh = heads, kv_heads, dim // heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.kv_proj = nn.Linear(dim, 2 * kv_heads * self.dh, bias=False) if produces_kv else None
        self.o_proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x, kv=None):
        B, T, D = x.shape
        q = rope(self.q_proj(x).view(B, T, self.heads, self.dh)).transpose(1, 2)
        if self.kv_proj is not None:
            k, v = self.kv_proj(x).view(B, T, 2, self.kv_heads, self.dh).unbind(2)
            kv = (rope(k), v)
        k, v = (t.reshape(B, self.kv_heads, T, self.dh) for t in kv)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        return self.o_proj(o.transpose(1, 2).reshape(B, T, D)), kv


class CLABlock(nn.Module):
    def __init__(self, dim, heads, kv_heads, produces_kv):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.attn = CLAAttention(dim, heads, kv_heads, produces_kv)
        self.gate_up = nn.Linear(dim, 4 * dim, bias=False)
        self.down = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x, kv):
        a, kv = self.attn(self.n1(x), kv)
        x = x + a
        g, u = self.gate_up(self.n2(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(g) * u), kv


class CLALM(nn.Module):
    def __init__(self, vocab=256, dim=32, heads=4, kv_heads=2, depth=4, share_every=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(CLABlock(dim, heads, kv_heads, i % share_every == 0) for i in range(depth))
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x, kv = self.emb(ids), None
        for blk in self.blocks:
            x, kv = blk(x, kv)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = CLALM().eval()
    return model, (torch.randint(0, 256, (2, 12)),)
