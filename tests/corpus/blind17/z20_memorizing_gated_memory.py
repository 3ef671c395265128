"""Memorizing Transformer layer with a learned per-head gate between local and memory attention.

Memory keys are L2-normalised when written, and so are the queries used for retrieval, which
keeps the kNN search a cosine search (Wu et al. 2022, sec. 3). The retrieved and local results
come from two separate softmaxes and are mixed with g = sigmoid(b_h) per head.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class GatedKNNAttention(nn.Module):
    def __init__(self, dim, heads, topk=3):
        super().__init__()
        self.heads, self.topk = heads, topk
        self.q = nn.Linear(dim, dim, bias=False)
        self.kv = nn.Linear(dim, 2 * dim, bias=False)
        self.gate_bias = nn.Parameter(torch.randn(heads) * 0.5)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, memory_keys, memory_values):
        T = x.size(1)
        q = rearrange(self.q(x), "b t (h d) -> b h t d", h=self.heads)
        k, v = rearrange(self.kv(x), "b t (two h d) -> two b h t d", two=2, h=self.heads)
        q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)
        scale = math.sqrt(q.size(-1))  # normalised q/k: fixed temperature instead of 1/sqrt(d)

        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        local = F.scaled_dot_product_attention(q, k, v, attn_mask=causal, scale=scale)

        sim = torch.einsum("bhid,bhjd->bhij", q, memory_keys) * scale
        top_sim, top_idx = sim.topk(self.topk, dim=-1)
        mem_v = memory_values[:, :, None].expand(-1, -1, T, -1, -1)
        picked = mem_v.gather(3, top_idx[..., None].expand(*top_idx.shape, mem_v.size(-1)))
        mem_out = torch.einsum("bhik,bhikd->bhid", top_sim.softmax(-1), picked)

        g = torch.sigmoid(self.gate_bias).view(1, -1, 1, 1)
        out = g * mem_out + (1 - g) * local
        return self.out(rearrange(out, "b h t d -> b t (h d)"))


class GatedMemoryLM(nn.Module):
    def __init__(self, vocab=256, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.attn = nn.ModuleList([GatedKNNAttention(dim, heads) for _ in range(depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids, memory_keys, memory_values):
        x = self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for i, attn in enumerate(self.attn):
            x = x + attn(self.norms[2 * i](x), memory_keys[i], memory_values[i])
            x = x + self.ff[i](self.norms[2 * i + 1](x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = GatedMemoryLM().eval()
    B, H, M, dh = 3, 4, 20, 8
    ids = torch.randint(0, 256, (B, 14))
    keys = F.normalize(torch.randn(2, B, H, M, dh), dim=-1)
    values = torch.randn(2, B, H, M, dh)
    return model, (ids, keys, values)
