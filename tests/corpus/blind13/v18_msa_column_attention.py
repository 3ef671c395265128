"""MSA encoder block (AlphaFold/MSA-Transformer style) with row and column attention.

The MSA is (B, S, L, c): S aligned sequences of L residues. Alignments have different depths,
so sequences are padded and `msa_mask` (B, S, L) marks the real entries. Row attention runs
along residues with tied (summed over rows) logits; column attention runs along sequences.
"""
import math

import torch
import torch.nn as nn


class RowAttention(nn.Module):
    def __init__(self, c=16, heads=4):
        super().__init__()
        self.h, self.dh = heads, c // heads
        self.ln = nn.LayerNorm(c)
        self.qkv = nn.Linear(c, 3 * c, bias=False)
        self.o = nn.Linear(c, c)

    def forward(self, m, mask):
        B, S, L, c = m.shape
        q, k, v = self.qkv(self.ln(m)).view(B, S, L, 3, self.h, self.dh).unbind(3)
        logits = torch.einsum("bsihd,bsjhd->bhij", q * mask[..., None, None], k) / math.sqrt(self.dh * S)
        logits = logits.masked_fill(~mask.any(1)[:, None, None, :], float("-inf"))
        w = logits.softmax(-1)
        out = torch.einsum("bhij,bsjhd->bsihd", w, v).reshape(B, S, L, c)
        return m + self.o(out)


class ColumnAttention(nn.Module):
    def __init__(self, c=16, heads=4):
        super().__init__()
        self.h, self.dh = heads, c // heads
        self.ln = nn.LayerNorm(c)
        self.qkv = nn.Linear(c, 3 * c, bias=False)
        self.gate = nn.Linear(c, c)
        self.o = nn.Linear(c, c)

    def forward(self, m, mask):
        B, S, L, c = m.shape
        h = self.ln(m)
        q, k, v = self.qkv(h).view(B, S, L, 3, self.h, self.dh).unbind(3)
        logits = torch.einsum("bslhd,btlhd->blhst", q, k) / math.sqrt(self.dh)   # (B, L, H, S_q, S_k)
        key_mask = mask.permute(0, 2, 1)[:, :, None, None, :]                     # (B, L, 1, 1, S_k)
        logits = logits.masked_fill(~key_mask, -1e9)
        w = torch.softmax(logits, dim=3)
        out = torch.einsum("blhst,btlhd->bslhd", w, v).reshape(B, S, L, c)
        return m + self.o(torch.sigmoid(self.gate(h)) * out)


class MSAEncoder(nn.Module):
    def __init__(self, n_aa=22, c=16, n_layers=2):
        super().__init__()
        self.emb = nn.Embedding(n_aa, c, padding_idx=0)
        self.row = nn.ModuleList(RowAttention(c) for _ in range(n_layers))
        self.col = nn.ModuleList(ColumnAttention(c) for _ in range(n_layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.LayerNorm(c), nn.Linear(c, 4 * c), nn.ReLU(), nn.Linear(4 * c, c)) for _ in range(n_layers))
        self.head = nn.Linear(c, n_aa)

    def forward(self, msa, msa_mask):
        m = self.emb(msa)
        for row, col, ff in zip(self.row, self.col, self.ff):
            m = row(m, msa_mask)
            m = col(m, msa_mask)
            m = m + ff(m)
        return self.head(m[:, 0])              # predictions for the query sequence


def build():
    torch.manual_seed(0)
    B, S, L = 2, 5, 7
    model = MSAEncoder().eval()
    msa = torch.randint(1, 22, (B, S, L))
    msa_mask = torch.ones(B, S, L, dtype=torch.bool)
    msa_mask[1, 3:] = False          # the second alignment has only 3 sequences
    msa = msa.masked_fill(~msa_mask, 0)
    return model, (msa, msa_mask)
