"""Protein-ligand binding affinity model with geometry-aware cross attention.

Ligand atoms (type + 3D position) attend to the residues of the binding pocket (residue type plus
a frozen protein language model embedding, CA position). The cross-attention logits get a learned
per-head bias from a radial basis expansion of the atom-residue distance. Pockets and ligands are
padded to the largest in the batch (id 0). Affinity (pKd) is read from a masked mean over atoms.
"""
import torch
import torch.nn as nn


class RBF(nn.Module):
    def __init__(self, n=16, cutoff=12.0):
        super().__init__()
        self.register_buffer("mu", torch.linspace(0, cutoff, n))
        self.gamma = (n / cutoff) ** 2

    def forward(self, d):
        return torch.exp(-self.gamma * (d[..., None] - self.mu) ** 2)


class PocketCrossAttention(nn.Module):
    def __init__(self, dim, heads, n_rbf=16):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.scale = self.dh ** -0.5
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.rbf = RBF(n_rbf)
        self.dist_bias = nn.Linear(n_rbf, heads)
        self.o = nn.Linear(dim, dim)

    def forward(self, atoms, atom_xyz, residues, res_xyz, pocket_mask):
        B, A, D = atoms.shape
        R = residues.size(1)
        q = self.q(atoms).view(B, A, self.heads, self.dh).transpose(1, 2)
        k = self.k(residues).view(B, R, self.heads, self.dh).transpose(1, 2)
        v = self.v(residues).view(B, R, self.heads, self.dh).transpose(1, 2)
        bias = self.dist_bias(self.rbf(torch.cdist(atom_xyz, res_xyz))).permute(0, 3, 1, 2)
        scores = torch.einsum("bhad,bhrd->bhar", q, k) * self.scale + bias
        scores.masked_fill(~pocket_mask[:, None, None, :], float("-inf"))
        attn = scores.softmax(dim=-1)
        return self.o((attn @ v).transpose(1, 2).reshape(B, A, D))


class AffinityModel(nn.Module):
    def __init__(self, n_atom_types=12, n_res_types=21, plm_dim=40, dim=32, heads=4):
        super().__init__()
        self.atom_emb = nn.Embedding(n_atom_types + 1, dim, padding_idx=0)
        self.res_emb = nn.Embedding(n_res_types + 1, dim, padding_idx=0)
        self.plm_proj = nn.Linear(plm_dim, dim)
        self.lig_self = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.cross = PocketCrossAttention(dim, heads)
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, 1))

    def forward(self, atom_types, atom_xyz, res_types, res_plm, res_xyz):
        atom_mask, pocket_mask = atom_types > 0, res_types > 0
        x = self.atom_emb(atom_types)
        r = self.res_emb(res_types) + self.plm_proj(res_plm)
        h = self.n1(x)
        x = x + self.lig_self(h, h, h, key_padding_mask=~atom_mask, need_weights=False)[0]
        x = x + self.cross(self.n2(x), atom_xyz, r, res_xyz, pocket_mask)
        x = x + self.ff(self.n3(x))
        m = atom_mask.unsqueeze(-1).float()
        pooled = (x * m).sum(1) / m.sum(1)
        return self.readout(pooled).squeeze(-1)


def build():
    torch.manual_seed(0)
    model = AffinityModel().eval()
    atom_types = torch.randint(1, 13, (3, 14))
    atom_types[0, 10:], atom_types[2, 7:] = 0, 0
    res_types = torch.randint(1, 22, (3, 20))
    res_types[1, 12:], res_types[2, 16:] = 0, 0
    atom_xyz = torch.randn(3, 14, 3) * 2.0
    res_xyz = torch.randn(3, 20, 3) * 5.0
    res_plm = torch.randn(3, 20, 40)
    res_plm[res_types == 0] = 0.0
    return model, (atom_types, atom_xyz, res_types, res_plm, res_xyz)
