import math

import torch
import torch.nn as nn


def relative_position_bucket(relative_position, bidirectional, num_buckets=32, max_distance=128):
    ret = 0
    if bidirectional:
        num_buckets //= 2
        ret = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        n = -torch.clamp(relative_position, max=0)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.float().clamp(min=1) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    return ret + torch.where(is_small, n, val_if_large)


class T5Attention(nn.Module):
    def __init__(self, d_model=32, n_heads=4, d_kv=8, num_buckets=32, is_decoder=True):
        super().__init__()
        self.h = n_heads
        self.d_kv = d_kv
        self.is_decoder = is_decoder
        self.num_buckets = num_buckets
        self.q = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.k = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.v = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.o = nn.Linear(n_heads * d_kv, d_model, bias=False)
        self.relative_attention_bias = nn.Embedding(num_buckets, n_heads)

    def compute_bias(self, T):
        ctx = torch.arange(T)[:, None]
        mem = torch.arange(T)[None, :]
        buckets = relative_position_bucket(mem - ctx, bidirectional=not self.is_decoder, num_buckets=self.num_buckets)
        return self.relative_attention_bias(buckets).permute(2, 0, 1).unsqueeze(0)

    def forward(self, x):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        k = self.k(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        v = self.v(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        scores = q @ k.transpose(-1, -2) + self.compute_bias(T)
        weights = scores.float().softmax(dim=-1).type_as(scores)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        weights = weights.masked_fill(~causal, 0.0)
        out = (weights @ v).transpose(1, 2).reshape(B, T, -1)
        return self.o(out)


class T5LayerNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * x * torch.rsqrt(var + self.eps)


class T5DecoderSelfBlock(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ln1 = T5LayerNorm(d)
        self.attn = T5Attention(d)
        self.ln2 = T5LayerNorm(d)
        self.wi = nn.Linear(d, 64, bias=False)
        self.wo = nn.Linear(64, d, bias=False)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.wo(torch.relu(self.wi(self.ln2(x))))


def build():
    torch.manual_seed(0)
    model = T5DecoderSelfBlock().eval()
    x = torch.randn(2, 9, 32)
    return model, (x,)
