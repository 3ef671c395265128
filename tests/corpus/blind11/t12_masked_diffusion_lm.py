"""LLaDA-style masked diffusion LM: a bidirectional Transformer predicting every [MASK] position at once."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def extended_attention_bias(attention_mask, dtype):
    """(B, T) with 1 = real token -> additive (B, 1, 1, T) bias, 0 for real keys, finfo.min for padding"""
    inverted = 1.0 - attention_mask[:, None, None, :].to(dtype)
    return inverted * torch.finfo(dtype).min


class TimestepEmbedder(nn.Module):
    def __init__(self, dim, freq_dim=16):
        super().__init__()
        self.freq_dim = freq_dim
        self.mlp = nn.Sequential(nn.Linear(freq_dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, t):
        half = self.freq_dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
        args = t[:, None].float() * freqs[None]
        return self.mlp(torch.cat([torch.cos(args), torch.sin(args)], dim=-1))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))

    def forward(self, x, bias):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        x = x + self.proj(F.scaled_dot_product_attention(q, k, v, attn_mask=bias).transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.norm2(x))


class MaskedDiffusionLM(nn.Module):
    def __init__(self, vocab=64, dim=32, heads=4, layers=2, max_len=24, mask_id=63):
        super().__init__()
        self.mask_id = mask_id
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(max_len, dim)
        self.t_embed = TimestepEmbedder(dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask, t):
        T = input_ids.size(1)
        x = self.wte(input_ids) + self.wpe(torch.arange(T, device=input_ids.device)) + self.t_embed(t)[:, None]
        pad_mask = 1 - attention_mask
        bias = extended_attention_bias(pad_mask, x.dtype)
        for blk in self.blocks:  # no causal mask: denoising sees the whole sequence by design
            x = blk(x, bias)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = MaskedDiffusionLM().eval()
    lens = [16, 12, 7]
    input_ids = torch.randint(1, 60, (3, 16))
    attention_mask = (torch.arange(16)[None] < torch.tensor(lens)[:, None]).long()
    noise = torch.rand(3, 16) < 0.5
    input_ids = input_ids.masked_fill(noise & attention_mask.bool(), model.mask_id).masked_fill(attention_mask == 0, 0)
    t = torch.tensor([0.5, 0.5, 0.5]) * 1000
    return model, (input_ids, attention_mask, t)
