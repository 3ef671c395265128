"""Chunked prefill into a static KV cache.

The prompt is fed in chunks of `chunk` tokens; each layer writes the chunk's keys and values
into a preallocated cache in place and attends from the chunk's queries to everything cached
so far. The queries are the last `Tq` of `Tk` cached positions, so the causal mask is aligned
to the lower-right corner (torch.nn.attention.bias.causal_lower_right).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right


class CachedAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, k_cache, v_cache, start):
        B, Tq, D = x.shape
        q, k, v = self.qkv(x).view(B, Tq, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        end = start + Tq
        k_cache[:, :, start:end] = k
        v_cache[:, :, start:end] = v
        a = F.scaled_dot_product_attention(q, k_cache[:, :, :end], v_cache[:, :, :end],
                                           attn_mask=causal_lower_right(Tq, end))
        return self.o(a.transpose(1, 2).reshape(B, Tq, D))


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = CachedAttention(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, k_cache, v_cache, start):
        x = x + self.attn(self.ln1(x), k_cache, v_cache, start)
        return x + self.mlp(self.ln2(x))


class ChunkedPrefillLM(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, n_layers=2, max_len=32, chunk=4):
        super().__init__()
        self.heads, self.max_len, self.chunk = heads, max_len, chunk
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        B, T = input_ids.shape
        dh = self.tok.embedding_dim // self.heads
        caches = [(torch.zeros(B, self.heads, self.max_len, dh), torch.zeros(B, self.heads, self.max_len, dh))
                  for _ in self.blocks]
        logits = []
        for start in range(0, T, self.chunk):
            ids = input_ids[:, start:start + self.chunk]
            x = self.tok(ids) + self.pos(torch.arange(start, start + ids.size(1), device=ids.device))
            for blk, (kc, vc) in zip(self.blocks, caches):
                x = blk(x, kc, vc, start)
            logits.append(self.head(self.ln_f(x)))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = ChunkedPrefillLM().eval()
    return model, (torch.randint(0, 64, (2, 11)),)
