"""Linformer encoder for fixed-length, right-padded text classification.

Keys and values are projected along the sequence axis from n = 16 rows down to k = 4 with
learned E and F matrices (Wang et al., 2020), so each layer costs O(n k) instead of O(n^2).
Because the projection mixes every position into every compressed row, padded positions are
zeroed before it; the projections have no bias so a zero row stays zero.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LinformerSelfAttention(nn.Module):
    def __init__(self, dim, seq_len, k, heads):
        super().__init__()
        self.heads, self.k = heads, k
        self.dim_head = dim // heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.proj_k = nn.Parameter(torch.randn(seq_len, k) / math.sqrt(k))
        self.proj_v = nn.Parameter(torch.randn(seq_len, k) / math.sqrt(k))
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        b, n, d = x.shape
        h, dh = self.heads, self.dim_head
        keep = mask[..., None].to(x.dtype)  # (b, n, 1): 1 for tokens, 0 for padding

        q = self.to_q(x)
        keys = self.to_k(x) * keep
        values = self.to_v(x)

        # compress the sequence axis: (b, n, d) x (n, k) -> (b, k, d)
        keys = torch.einsum("bnd,nk->bkd", keys, self.proj_k[:n])
        values = torch.einsum("bnd,nk->bkd", values, self.proj_v[:n])

        q = q.view(b, n, h, dh).transpose(1, 2)
        keys = keys.view(b, self.k, h, dh).transpose(1, 2)
        values = values.view(b, self.k, h, dh).transpose(1, 2)

        dots = q @ keys.transpose(-1, -2) / math.sqrt(dh)
        attn = dots.softmax(dim=-1)
        out = (attn @ values).transpose(1, 2).reshape(b, n, d)
        return self.to_out(out)


class LinformerBlock(nn.Module):
    def __init__(self, dim, seq_len, k, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = LinformerSelfAttention(dim, seq_len, k, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, mask):
        x = x + self.attn(self.norm1(x), mask)
        return x + self.ff(self.norm2(x))


class LinformerClassifier(nn.Module):
    def __init__(self, vocab=50, dim=32, seq_len=16, k=4, heads=4, depth=2, n_classes=3):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(seq_len, dim) * 0.02)
        self.blocks = nn.ModuleList([LinformerBlock(dim, seq_len, k, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, input_ids, attention_mask):
        mask = attention_mask.bool()
        x = self.tok(input_ids) + self.pos[: input_ids.size(1)]
        for blk in self.blocks:
            x = blk(x, mask)
        x = self.norm(x)
        # token-level features and a masked-mean sentence logit
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
        return x, self.head(pooled)


def build():
    torch.manual_seed(0)
    model = LinformerClassifier().eval()
    lengths = torch.tensor([16, 11, 7])
    ids = torch.randint(1, 50, (3, 16))
    mask = torch.arange(16)[None, :] < lengths[:, None]
    ids = ids.masked_fill(~mask, 0)
    return model, (ids, mask.long())
