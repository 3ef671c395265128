"""GPT-style LM trained on packed rows: several documents are concatenated into one row of
fixed length, with `segment_ids` numbering the documents (1, 2, ...; 0 = trailing padding).

Attention is block-diagonal causal: a token sees earlier tokens of its own document only.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PackedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)

    def forward(self, x, doc_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.unflatten(-1, (self.heads, -1)).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=doc_mask[:, None])
        return self.o(y.transpose(1, 2).flatten(2))


class PackedLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList([PackedAttention(dim, heads) for _ in range(depth)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
                                  for _ in range(depth)])
        self.ln_a = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.ln_f = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, segment_ids):
        B, T = input_ids.shape
        same_doc = segment_ids[:, :, None] == segment_ids[:, None, :]
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        doc_mask = same_doc & causal  # padding (segment 0) forms its own block, so no row is empty
        positions = torch.arange(T, device=input_ids.device).expand(B, T)
        x = self.tok(input_ids) + self.pos(positions)
        for attn, ffn, ln_a, ln_f in zip(self.attn, self.ffn, self.ln_a, self.ln_f):
            x = x + attn(ln_a(x), doc_mask)
            x = x + ffn(ln_f(x))
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(11)
    model = PackedLM().eval()
    input_ids = torch.randint(1, 64, (2, 16))
    segment_ids = torch.tensor([[1] * 5 + [2] * 7 + [3] * 4,
                                [1] * 9 + [2] * 5 + [0] * 2])
    return model, (input_ids, segment_ids)
