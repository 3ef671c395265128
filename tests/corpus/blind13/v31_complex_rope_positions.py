"""Decoder with complex-valued rotary embeddings indexed by per-token position ids.

Left-padded prompts: position_ids count the real tokens, and freqs_cis is gathered per token,
giving a (B, T, head_dim/2) table that is broadcast over the head axis of (B, T, H, head_dim/2).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def precompute_freqs_cis(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2).float() / dim))
    return torch.polar(torch.ones(end, dim // 2), torch.outer(torch.arange(end).float(), freqs))


def apply_rotary_emb(x, freqs_cis):
    # x: (B, T, H, head_dim); freqs_cis: (B, T, head_dim // 2)
    xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(xc * freqs_cis.unsqueeze(2)).flatten(3).type_as(x)


class Attention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.wqkv = nn.Linear(d, 3 * d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)

    def forward(self, x, freqs_cis, allowed):
        B, T, D = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.h, self.dh).unbind(2)
        q, k = apply_rotary_emb(q, freqs_cis), apply_rotary_emb(k, freqs_cis)
        o = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                           attn_mask=allowed)
        return self.wo(o.transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(d), nn.RMSNorm(d)
        self.attn = Attention(d)
        self.ff = nn.Sequential(nn.Linear(d, 64, bias=False), nn.SiLU(), nn.Linear(64, d, bias=False))

    def forward(self, x, freqs_cis, allowed):
        x = x + self.attn(self.n1(x), freqs_cis, allowed)
        return x + self.ff(self.n2(x))


class RotaryLM(nn.Module):
    def __init__(self, vocab=64, d=32, heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.norm = nn.RMSNorm(d)
        self.out = nn.Linear(d, vocab, bias=False)
        self.register_buffer("freqs_cis", precompute_freqs_cis(d // heads, max_len), persistent=False)

    def forward(self, tokens, attention_mask):
        B, T = tokens.shape
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        freqs_cis = self.freqs_cis[position_ids]                        # (B, T, head_dim/2)
        real = attention_mask.bool()
        causal = torch.ones(T, T, dtype=torch.bool, device=tokens.device).tril()
        allowed = (causal[None] & real[:, None, :]) | ~real[:, :, None]   # pad rows see everything
        h = self.tok(tokens)
        for blk in self.blocks:
            h = blk(h, freqs_cis, allowed[:, None])
        return self.out(self.norm(h))


def build():
    torch.manual_seed(0)
    model = RotaryLM().eval()
    tokens = torch.randint(3, 64, (2, 11))
    mask = torch.ones(2, 11, dtype=torch.long)
    mask[1, :5] = 0
    tokens[mask == 0] = 0
    return model, (tokens, mask)
