"""Causal cosFormer language model (Qin et al., 2022): linear attention with ReLU features and
cos re-weighting; the causal form keeps running (prefix) sums of k v^T and of k instead of a
masked score matrix.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalCosformerAttention(nn.Module):
    def __init__(self, d, heads, max_len=64, eps=1e-6):
        super().__init__()
        self.h, self.max_len, self.eps = heads, max_len, eps
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        q, k = F.relu(q), F.relu(k)
        idx = math.pi / 2 * torch.arange(1, N + 1, device=x.device, dtype=x.dtype) / self.max_len
        w = torch.stack([idx.sin(), idx.cos()], dim=-1)                    # (N, 2)
        q_ = (q.unsqueeze(-1) * w[:, None, :]).flatten(-2)                  # (B, H, N, 2d)
        k_ = (k.unsqueeze(-1) * w[:, None, :]).flatten(-2)
        kv = torch.einsum("bhnd,bhne->bhnde", k_, v).cumsum(dim=2)          # sum over j <= n
        k_cum = k_.cumsum(dim=2)
        num = torch.einsum("bhnd,bhnde->bhne", q_, kv)
        den = torch.einsum("bhnd,bhnd->bhn", q_, k_cum).clamp_min(self.eps)
        out = num / den.unsqueeze(-1)
        return self.out(out.transpose(1, 2).reshape(B, N, D))


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d), CausalCosformerAttention(d, heads)
        self.ln2, self.mlp = nn.LayerNorm(d), nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class CosformerLM(nn.Module):
    def __init__(self, vocab=110, d=32, heads=4, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        x = self.emb(idx)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = CosformerLM().eval()
    idx = torch.randint(0, 110, (3, 18))
    return model, (idx,)
