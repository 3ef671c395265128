"""GPT block written for torch.compile: static shapes, no data-dependent control flow,
a causal mask buffer sized once, fused QKV split with torch.split."""
import math

import torch
import torch.nn as nn


class CompiledCausalSelfAttention(nn.Module):
    def __init__(self, d=32, n_head=4, block_size=16):
        super().__init__()
        self.d, self.n_head, self.head_dim = d, n_head, d // n_head
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.shape
        qkv = self.c_attn(x)
        q, k, v = map(lambda t: t.reshape(B, self.n_head, T, self.head_dim), qkv.split(self.d, dim=2))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.attn = CompiledCausalSelfAttention(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class CompiledGPT(nn.Module):
    def __init__(self, vocab=64, d=32, n_layer=2, block_size=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(block_size, d)
        self.h = nn.ModuleList(Block(d) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight
        self.register_buffer("pos", torch.arange(block_size), persistent=False)

    def forward(self, idx):
        T = idx.size(1)
        x = self.wte(idx) + self.wpe(self.pos[:T])
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = CompiledGPT().eval()
    return model, (torch.randint(0, 64, (2, 16)),)
