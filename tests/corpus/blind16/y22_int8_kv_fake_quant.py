"""Evaluating a decoder LM with an int8 KV cache (fake quantisation in the attention path).

K and V are rounded to int8 with a symmetric absmax scale and dequantised before the attention
product, which reproduces what an int8 cache would feed the kernel.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fake_quant_int8(x):
    scale = x.detach().abs().amax().clamp(min=1e-8) / 127.0
    return torch.clamp(torch.round(x / scale), -127, 127) * scale


class QuantKVAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        k, v = fake_quant_int8(k), fake_quant_int8(v)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = QuantKVAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class QuantEvalGPT(nn.Module):
    def __init__(self, vocab=128, dim=48, heads=4, depth=2, block_size=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(block_size, dim)
        self.h = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = QuantEvalGPT().eval()
    return model, (torch.randint(0, 128, (3, 24)),)
