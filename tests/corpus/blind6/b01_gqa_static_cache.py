"""Grouped-query attention decoder that decodes token by token over a static KV cache."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class GQAttention(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(n_heads * self.head_dim, dim, bias=False)
        cache_shape = (max_batch, n_kv_heads, max_seq, self.head_dim)
        self.register_buffer("k_cache", torch.zeros(cache_shape), persistent=False)
        self.register_buffer("v_cache", torch.zeros(cache_shape), persistent=False)

    def forward(self, x, pos):
        # x: (B, 1, dim), the token at absolute position `pos`
        bsz = x.shape[0]
        q = self.wq(x).view(bsz, 1, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(bsz, 1, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(bsz, 1, self.n_kv_heads, self.head_dim).transpose(1, 2)

        self.k_cache[:bsz, :, pos] = k[:, :, 0]
        self.v_cache[:bsz, :, pos] = v[:, :, 0]

        keys = self.k_cache[:bsz, :, : pos + 1]
        values = self.v_cache[:bsz, :, : pos + 1]
        n_rep = self.n_heads // self.n_kv_heads
        keys = keys.repeat_interleave(n_rep, dim=1)
        values = values.repeat_interleave(n_rep, dim=1)

        scores = torch.matmul(q, keys.transpose(2, 3)) / math.sqrt(self.head_dim)
        probs = F.softmax(scores.float(), dim=-1).type_as(q)
        out = torch.matmul(probs, values)
        out = out.transpose(1, 2).reshape(bsz, 1, -1)
        return self.wo(out)


class FeedForward(nn.Module):
    def __init__(self, dim, hidden):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class DecoderLayer(nn.Module):
    def __init__(self, dim, n_heads, n_kv_heads, max_batch, max_seq):
        super().__init__()
        self.attn_norm = RMSNorm(dim)
        self.attn = GQAttention(dim, n_heads, n_kv_heads, max_batch, max_seq)
        self.mlp_norm = RMSNorm(dim)
        self.mlp = FeedForward(dim, 4 * dim)

    def forward(self, x, pos):
        x = x + self.attn(self.attn_norm(x), pos)
        return x + self.mlp(self.mlp_norm(x))


class GQADecoder(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_kv_heads=2, n_layers=2, max_batch=4, max_seq=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(
            DecoderLayer(dim, n_heads, n_kv_heads, max_batch, max_seq) for _ in range(n_layers)
        )
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        logits = []
        for pos in range(tokens.shape[1]):
            h = self.embed(tokens[:, pos : pos + 1])
            for layer in self.layers:
                h = layer(h, pos)
            logits.append(self.lm_head(self.norm(h)))
        return torch.cat(logits, dim=1)


def build():
    torch.manual_seed(0)
    model = GQADecoder().eval()
    tokens = torch.randint(0, 64, (2, 9))
    return model, (tokens,)
