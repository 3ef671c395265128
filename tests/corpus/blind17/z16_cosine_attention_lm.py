"""Decoder-only LM with cosine attention and a learned temperature (QK-norm style).

With L2-normalised queries and keys the scores are bounded, so the usual 1/sqrt(d_head)
factor is replaced by a learnable per-head inverse temperature g initialised from the
sequence length (Henry et al., 2020, "Query-Key Normalization for Transformers").
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QKNormAttention(nn.Module):
    def __init__(self, d_model, n_head, max_len):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)
        g0 = math.log2(max_len ** 2 - max_len)
        self.g = nn.Parameter(torch.full((1, n_head, 1, 1), g0))
        self.register_buffer("bias", torch.tril(torch.ones(max_len, max_len)).view(1, 1, max_len, max_len))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q, k = F.normalize(q, p=2, dim=-1), F.normalize(k, p=2, dim=-1)
        att = self.g * (q @ k.transpose(-2, -1))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class CosLM(nn.Module):
    def __init__(self, vocab=200, d_model=48, n_head=4, n_layer=2, max_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(max_len, d_model)
        self.h = nn.ModuleList()
        for _ in range(n_layer):
            self.h.append(nn.ModuleDict(dict(
                ln_1=nn.LayerNorm(d_model), attn=QKNormAttention(d_model, n_head, max_len),
                ln_2=nn.LayerNorm(d_model), mlp=nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model)))))
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        for blk in self.h:
            x = x + blk["attn"](blk["ln_1"](x))
            x = x + blk["mlp"](blk["ln_2"](x))
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = CosLM().eval()
    idx = torch.randint(0, 200, (3, 16))
    return model, (idx,)
