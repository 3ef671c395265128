"""Chunked prefill: a long prompt is fed to the KV cache 4 tokens at a time, each chunk attending to
the cache plus itself through scaled_dot_product_attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, cache):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if cache:
            k = torch.cat([cache["k"], k], dim=2)
            v = torch.cat([cache["v"], v], dim=2)
        cache["k"], cache["v"] = k, v
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(B, T, D))


class ChunkedLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_len=24, chunk=4):
        super().__init__()
        self.chunk = chunk
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(
            nn.ModuleDict(dict(ln1=nn.LayerNorm(dim), attn=CachedSelfAttention(dim, heads), ln2=nn.LayerNorm(dim),
                               mlp=nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))))
            for _ in range(layers)
        )
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        caches = [{} for _ in self.blocks]
        outs = []
        for start in range(0, input_ids.size(1), self.chunk):
            ids = input_ids[:, start : start + self.chunk]
            x = self.tok(ids) + self.pos(torch.arange(start, start + ids.size(1)))
            for blk, cache in zip(self.blocks, caches):
                x = x + blk["attn"](blk["ln1"](x), cache)
                x = x + blk["mlp"](blk["ln2"](x))
            outs.append(self.head(self.ln_f(x)))
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    return ChunkedLM().eval(), (torch.randint(0, 50, (2, 12)),)
