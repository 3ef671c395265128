import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MSAColumnAttention(nn.Module):
    """Gated self-attention along the MSA depth (sequences) for every residue column."""

    def __init__(self, c_m=32, c_hidden=8, no_heads=4, inf=1e9):
        super().__init__()
        self.h, self.c, self.inf = no_heads, c_hidden, inf
        self.norm = nn.LayerNorm(c_m)
        self.to_qkv = nn.Linear(c_m, 3 * no_heads * c_hidden, bias=False)
        self.to_g = nn.Linear(c_m, no_heads * c_hidden)
        self.to_out = nn.Linear(no_heads * c_hidden, c_m)

    def forward(self, m, msa_mask):
        # m: [B, S, L, c_m], msa_mask: [B, S, L]
        m = m.transpose(-2, -3)  # [B, L, S, c_m]
        x = self.norm(m)
        q, k, v = self.to_qkv(x).unflatten(-1, (3, self.h, self.c)).unbind(-3)  # each [B, L, S, H, c]
        logits = torch.einsum("blqhc,blkhc->blhqk", q, k) / math.sqrt(self.c)
        logits = logits + self.inf * (msa_mask[:, :, None, None, :] - 1)
        w = logits.softmax(-1)
        o = torch.einsum("blhqk,blkhc->blqhc", w, v)
        o = o * torch.sigmoid(self.to_g(x)).unflatten(-1, (self.h, self.c))
        return self.to_out(o.flatten(-2)).transpose(-2, -3)


class MSAColumnStack(nn.Module):
    def __init__(self, c_m=32, n_blocks=2):
        super().__init__()
        self.col = nn.ModuleList(MSAColumnAttention(c_m) for _ in range(n_blocks))
        self.ff = nn.ModuleList(
            nn.Sequential(nn.LayerNorm(c_m), nn.Linear(c_m, 2 * c_m), nn.ReLU(), nn.Linear(2 * c_m, c_m))
            for _ in range(n_blocks))

    def forward(self, m, msa_mask):
        for col, ff in zip(self.col, self.ff):
            m = m + col(m, msa_mask)
            m = m + ff(m)
        return m


def build():
    torch.manual_seed(0)
    model = MSAColumnStack().eval()
    B, S, L = 2, 6, 6
    m = torch.randn(B, S, L, 32)
    msa_mask = torch.ones(B, S, L)
    msa_mask[1, 4:] = 0  # second alignment has only 4 sequences; padded rows
    return model, (m, msa_mask)
