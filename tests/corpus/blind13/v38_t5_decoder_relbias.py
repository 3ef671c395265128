"""T5-style decoder (v1.1 flavour) written out by hand.

Self-attention uses a learned relative-position bias with unidirectional log buckets (shared
by all layers, computed once) plus the causal mask; cross-attention reads the encoder outputs
with the encoder padding mask. As in T5, attention logits are not divided by sqrt(d_head):
the 1/sqrt(d_head) is folded into the initialization of the query projection. T5's
LayerNorm is an RMS norm without mean subtraction or bias.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class T5Norm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(d)), eps

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


def causal_buckets(q_len, k_len, num_buckets=16, max_distance=32):
    ctx = torch.arange(q_len)[:, None]
    mem = torch.arange(k_len)[None, :]
    n = -torch.min(mem - ctx, torch.zeros_like(mem - ctx))            # distance to the past, >= 0
    max_exact = num_buckets // 2
    large = max_exact + (torch.log(n.float() / max_exact + 1e-6) / math.log(max_distance / max_exact)
                         * (num_buckets - max_exact)).long()
    large = torch.clamp(large, max=num_buckets - 1)
    return torch.where(n < max_exact, n, large)


class T5Attention(nn.Module):
    def __init__(self, d=32, heads=4, d_kv=8):
        super().__init__()
        self.h, self.d_kv = heads, d_kv
        self.q = nn.Linear(d, heads * d_kv, bias=False)
        self.k = nn.Linear(d, heads * d_kv, bias=False)
        self.v = nn.Linear(d, heads * d_kv, bias=False)
        self.o = nn.Linear(heads * d_kv, d, bias=False)
        nn.init.normal_(self.q.weight, std=(d * d_kv) ** -0.5)

    def forward(self, x, kv, bias):
        B, T, _ = x.shape
        S = kv.size(1)
        q = self.q(x).view(B, T, self.h, self.d_kv).transpose(1, 2)
        k = self.k(kv).view(B, S, self.h, self.d_kv).transpose(1, 2)
        v = self.v(kv).view(B, S, self.h, self.d_kv).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(3, 2)) + bias
        w = F.softmax(scores.float(), dim=-1).type_as(scores)
        return self.o(torch.matmul(w, v).transpose(1, 2).reshape(B, T, -1))


class T5DecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.sa_norm, self.ca_norm, self.ff_norm = T5Norm(d), T5Norm(d), T5Norm(d)
        self.self_attn, self.cross_attn = T5Attention(d), T5Attention(d)
        self.wi_0 = nn.Linear(d, 64, bias=False)
        self.wi_1 = nn.Linear(d, 64, bias=False)
        self.wo = nn.Linear(64, d, bias=False)

    def forward(self, y, enc, self_bias, cross_bias):
        y = y + self.self_attn(self.sa_norm(y), self.sa_norm(y), self_bias)
        y = y + self.cross_attn(self.ca_norm(y), enc, cross_bias)
        h = self.ff_norm(y)
        return y + self.wo(F.gelu(self.wi_0(h), approximate="tanh") * self.wi_1(h))


class T5Decoder(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, n_layers=2, num_buckets=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.rel_bias = nn.Embedding(num_buckets, heads)
        self.layers = nn.ModuleList(T5DecoderLayer(d) for _ in range(n_layers))
        self.final_norm = T5Norm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, decoder_input_ids, encoder_hidden_states, encoder_attention_mask):
        B, T = decoder_input_ids.shape
        buckets = causal_buckets(T, T)
        self_bias = self.rel_bias(buckets).permute(2, 0, 1)[None]                  # (1, H, T, T)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        self_bias = self_bias.masked_fill(future, torch.finfo(self_bias.dtype).min)
        cross_bias = (1.0 - encoder_attention_mask[:, None, None, :].float()) * torch.finfo(torch.float32).min
        y = self.embed(decoder_input_ids)
        for layer in self.layers:
            y = layer(y, encoder_hidden_states, self_bias, cross_bias)
        return self.lm_head(self.final_norm(y))


def build():
    torch.manual_seed(0)
    model = T5Decoder().eval()
    dec = torch.randint(0, 64, (2, 9))
    enc = torch.randn(2, 7, 32)
    enc_mask = torch.ones(2, 7, dtype=torch.long)
    enc_mask[1, 4:] = 0
    return model, (dec, enc, enc_mask)
