"""GPT-2 style decoder that accepts left-padded batches for generation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)

    def forward(self, x, bias):
        B, T, C = x.shape
        hd = C // self.n_heads
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_heads, hd).transpose(1, 2) for t in (q, k, v))
        w = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(hd) + bias
        w = F.softmax(w, dim=-1)
        return self.c_proj(torch.matmul(w, v).transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, n_heads)
        self.ln_2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x, bias):
        x = x + self.attn(self.ln_1(x), bias)
        return x + self.mlp(self.ln_2(x))


class GPT2(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, n_positions=64):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(n_positions, dim)
        self.h = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        position_ids = attention_mask.long().cumsum(0) - 1
        position_ids = position_ids.masked_fill(attention_mask == 0, 1)

        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        allowed = causal & attention_mask[:, None, None, :].bool()
        allowed = allowed | torch.eye(T, dtype=torch.bool, device=input_ids.device)  # keep pad rows non-empty
        bias = torch.zeros(allowed.shape).masked_fill(~allowed, torch.finfo(torch.float32).min)

        x = self.wte(input_ids) + self.wpe(position_ids)
        for block in self.h:
            x = block(x, bias)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = GPT2().eval()
    attention_mask = torch.tensor([[0, 0, 1, 1, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1]])
    input_ids = torch.randint(1, 64, (2, 8)) * attention_mask
    return model, (input_ids, attention_mask)
