"""Multi-codebook audio token LM with the "delay" interleaving pattern.

Codes from a residual vector quantizer come as (B, K, T). Codebook k is shifted right by k
steps (filled with a special token), the K embeddings are summed per step, and a small causal
decoder predicts all K codebooks of the next step with one linear head per codebook.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def apply_delay_pattern(codes, special):
    """(B, K, T) -> (B, K, T + K - 1); codebook k starts k steps late."""
    B, K, T = codes.shape
    out = codes.new_full((B, K, T + K - 1), special)
    for k in range(K):
        out[:, k, k:k + T] = codes[:, k]
    return out


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, S, D = x.shape
        h = self.n_heads
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, S, h, D // h).permute(0, 2, 1, 3) for t in (q, k, v))
        att = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(D // h)
        visible = torch.ones(S, S, dtype=torch.bool, device=x.device).tril(diagonal=1)
        att = att.masked_fill(~visible, float("-inf"))
        att = att.softmax(dim=-1)
        y = torch.matmul(att, v).permute(0, 2, 1, 3).reshape(B, S, D)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class DelayedCodebookLM(nn.Module):
    def __init__(self, n_q=4, card=64, dim=48, n_heads=4, depth=2, max_len=64):
        super().__init__()
        self.n_q, self.card = n_q, card
        self.special = card  # one extra id per codebook for the delay filler
        self.emb = nn.ModuleList([nn.Embedding(card + 1, dim) for _ in range(n_q)])
        self.pos = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([Block(dim, n_heads) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.heads = nn.ModuleList([nn.Linear(dim, card) for _ in range(n_q)])

    def forward(self, codes):
        seq = apply_delay_pattern(codes, self.special)
        S = seq.size(-1)
        x = sum(self.emb[k](seq[:, k]) for k in range(self.n_q))
        x = x + self.pos(torch.arange(S, device=codes.device))
        for blk in self.blocks:
            x = blk(x)
        x = self.ln_f(x)
        return torch.stack([head(x) for head in self.heads], dim=1)  # (B, K, S, card)


def build():
    torch.manual_seed(0)
    model = DelayedCodebookLM().eval()
    codes = torch.randint(0, 64, (2, 4, 12))
    return model, (codes,)
