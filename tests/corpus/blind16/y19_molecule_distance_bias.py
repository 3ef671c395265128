"""Molecule property regressor: a graph transformer over atoms with a learned interatomic
distance bias (MAT / Uni-Mol style Gaussian-basis distance encoding, one bias map per head).

Molecules are padded to the same number of atoms; `atom_mask` is True for real atoms. The
target is an extensive property, so atom contributions are summed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianDistanceBias(nn.Module):
    def __init__(self, heads, num_kernels=16, cutoff=6.0):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.0, cutoff, num_kernels))
        self.width = cutoff / num_kernels
        self.proj = nn.Sequential(nn.Linear(num_kernels, num_kernels), nn.GELU(), nn.Linear(num_kernels, heads))

    def forward(self, coords):
        dist = torch.cdist(coords, coords)                                             # (B, N, N)
        rbf = torch.exp(-((dist[..., None] - self.centers) / self.width) ** 2)
        return self.proj(rbf).permute(0, 3, 1, 2)                                      # (B, H, N, N)


class BiasedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, h, bias, atom_mask):
        B, N, D = h.shape
        q, k, v = self.qkv(h).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        logits = q @ k.transpose(-1, -2) * (D // self.heads) ** -0.5 + bias
        logits = logits.masked_fill(~atom_mask[:, None, :, None], -1e9)
        attn = logits.softmax(-1)
        return self.out((attn @ v).transpose(1, 2).reshape(B, N, D))


class MoleculeTransformer(nn.Module):
    def __init__(self, num_atom_types=20, dim=32, heads=4, layers=2):
        super().__init__()
        self.atom_embed = nn.Embedding(num_atom_types, dim, padding_idx=0)
        self.dist_bias = GaussianDistanceBias(heads)
        self.attn = nn.ModuleList([BiasedAttention(dim, heads) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * layers)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))
                                  for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, atoms, coords, atom_mask):
        h = self.atom_embed(atoms)
        bias = self.dist_bias(coords)
        for i, (attn, ffn) in enumerate(zip(self.attn, self.ffn)):
            h = h + attn(self.norms[2 * i](h), bias, atom_mask)
            h = h + ffn(self.norms[2 * i + 1](h))
        per_atom = self.readout(h).squeeze(-1)
        return (per_atom * atom_mask).sum(-1)


def build():
    torch.manual_seed(0)
    model = MoleculeTransformer().eval()
    n_atoms = torch.tensor([12, 7, 9])
    atom_mask = torch.arange(12)[None, :] < n_atoms[:, None]
    atoms = torch.randint(1, 20, (3, 12)).masked_fill(~atom_mask, 0)
    coords = torch.randn(3, 12, 3) * 1.5
    return model, (atoms, coords, atom_mask)
