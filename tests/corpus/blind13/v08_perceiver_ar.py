"""Perceiver AR: a long causal context compressed into latents at the last positions.

The last n_latents positions act as queries of one cross-attention over the whole input
(aligned to the lower-right corner, so latent i at absolute position T - N + i sees keys
0..T - N + i); a stack of latent self-attention layers then processes the latents, and each
latent predicts the token after its position.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right


def split_heads(t, h):
    B, L, D = t.shape
    return t.view(B, L, h, D // h).transpose(1, 2)


def merge_heads(t):
    B, H, L, dh = t.shape
    return t.transpose(1, 2).reshape(B, L, H * dh)


class LatentCrossAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln_q, self.ln_kv = nn.LayerNorm(d), nn.LayerNorm(d)
        self.q, self.kv, self.o = nn.Linear(d, d), nn.Linear(d, 2 * d), nn.Linear(d, d)

    def forward(self, latents, context):
        N, T = latents.size(1), context.size(1)
        q = split_heads(self.q(self.ln_q(latents)), self.h)
        k, v = self.kv(self.ln_kv(context)).chunk(2, dim=-1)
        a = F.scaled_dot_product_attention(q, split_heads(k, self.h), split_heads(v, self.h),
                                           attn_mask=causal_lower_right(N, T))
        return latents + self.o(merge_heads(a))


class LatentSelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln = nn.LayerNorm(d)
        self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ln_ff = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        q, k, v = (split_heads(t, self.h) for t in self.qkv(self.ln(x)).chunk(3, dim=-1))
        o = F.scaled_dot_product_attention(q, k, v)
        x = x + self.o(merge_heads(o))
        return x + self.ff(self.ln_ff(x))


class PerceiverAR(nn.Module):
    def __init__(self, vocab=48, d=32, heads=4, n_latents=6, n_layers=2, max_len=32):
        super().__init__()
        self.n_latents = n_latents
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.cross = LatentCrossAttention(d, heads)
        self.layers = nn.ModuleList(LatentSelfAttention(d, heads) for _ in range(n_layers))
        self.ln_out = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, input_ids):
        T = input_ids.size(1)
        x = self.tok(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        latents = self.cross(x[:, -self.n_latents:], x)
        for layer in self.layers:
            latents = layer(latents)
        return self.head(self.ln_out(latents))


def build():
    torch.manual_seed(0)
    model = PerceiverAR().eval()
    return model, (torch.randint(0, 48, (2, 14)),)
