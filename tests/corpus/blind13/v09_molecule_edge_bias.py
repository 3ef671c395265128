"""Graph transformer for molecular property prediction.

Atoms are padded to a common count; bonds come as a dense (B, N, N) bond-type matrix
(0 = no bond) and inter-atomic distances as (B, N, N). Both become per-head additive
attention biases; padded atoms are removed from attention and from the readout.
"""
import math

import torch
import torch.nn as nn


class GraphAttention(nn.Module):
    def __init__(self, d=32, heads=4, n_bond_types=5, n_rbf=8):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.bond_bias = nn.Embedding(n_bond_types, heads)
        self.rbf_centers = nn.Parameter(torch.linspace(0, 4, n_rbf), requires_grad=False)
        self.dist_bias = nn.Linear(n_rbf, heads)

    def forward(self, x, bonds, dist, atom_mask):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        rbf = torch.exp(-(dist.unsqueeze(-1) - self.rbf_centers) ** 2)
        bias = self.bond_bias(bonds) + self.dist_bias(rbf)            # (B, N, N, H)
        scores = scores + bias.permute(0, 3, 1, 2)
        scores = scores.masked_fill(~atom_mask[:, None, None, :], 0.0)
        w = scores.softmax(dim=-1)
        return self.o((w @ v).transpose(1, 2).reshape(B, N, D))


class MolTransformer(nn.Module):
    def __init__(self, n_elements=12, d=32, n_layers=2):
        super().__init__()
        self.atom = nn.Embedding(n_elements, d, padding_idx=0)
        self.attn = nn.ModuleList(GraphAttention(d) for _ in range(n_layers))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, d)) for _ in range(n_layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.readout = nn.Sequential(nn.Linear(d, d), nn.SiLU(), nn.Linear(d, 1))

    def forward(self, elements, bonds, dist, atom_mask):
        x = self.atom(elements)
        for attn, ffn, ln1, ln2 in zip(self.attn, self.ffn, self.ln1, self.ln2):
            x = x + attn(ln1(x), bonds, dist, atom_mask)
            x = x + ffn(ln2(x))
        m = atom_mask.unsqueeze(-1).float()
        pooled = (x * m).sum(1) / m.sum(1)
        return self.readout(pooled).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = MolTransformer().eval()
    B, N = 3, 9
    n_atoms = torch.tensor([9, 6, 4])
    atom_mask = torch.arange(N)[None, :] < n_atoms[:, None]
    elements = torch.randint(1, 12, (B, N)).masked_fill(~atom_mask, 0)
    coords = torch.randn(B, N, 3)
    dist = torch.cdist(coords, coords)
    bonds = torch.randint(0, 5, (B, N, N))
    bonds = torch.triu(bonds, 1)
    bonds = bonds + bonds.transpose(1, 2)
    pair = atom_mask[:, :, None] & atom_mask[:, None, :]
    bonds = bonds.masked_fill(~pair, 0)
    dist = dist.masked_fill(~pair, 0.0)
    return model, (elements, bonds, dist, atom_mask)
