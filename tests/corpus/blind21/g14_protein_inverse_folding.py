"""Inverse folding (structure -> sequence), ProteinMPNN-style random-order decoding.

The structure encoder attends over residues with a distance bias. The decoder predicts every
residue's amino acid; residue i may use the identities of the residues decoded before it in a
random per-protein order, and the structure of all residues.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rbf(d, n=16, d_min=2.0, d_max=22.0):
    mu = torch.linspace(d_min, d_max, n, device=d.device)
    return torch.exp(-(((d.unsqueeze(-1) - mu) / ((d_max - d_min) / n)) ** 2))


def decoding_ranks(noise, mask):
    order = torch.argsort(noise + (~mask).float() * 1e4, dim=-1)   # residue decoded at each step
    return torch.argsort(order, dim=-1)                            # step at which each residue is decoded


def backward_mask(rank):
    """[b, i, j]: residue j is already decoded when residue i is"""
    return rank.unsqueeze(2) >= rank.unsqueeze(1)


class PairAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim) for _ in range(4))
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, h, kv, bias, mask):
        # kv: (B, L, L, D) = what query i sees of residue j
        B, L, D = h.shape
        q = self.q(h).view(B, L, 1, self.h, self.dh)
        k = self.k(kv).view(B, L, L, self.h, self.dh)
        v = self.v(kv).view(B, L, L, self.h, self.dh)
        scores = (q * k).sum(-1) / self.dh ** 0.5 + bias               # (B, L, L, H)
        scores = scores.masked_fill(~mask[:, None, :, None], float("-inf"))
        attn = scores.softmax(dim=2)
        h = self.norm1(h + self.o((attn.unsqueeze(-1) * v).sum(2).reshape(B, L, D)))
        return self.norm2(h + self.ff(h))


class InverseFolding(nn.Module):
    def __init__(self, dim=32, heads=4, n_aa=21, max_rel=16):
        super().__init__()
        self.max_rel = max_rel
        self.node_in = nn.Linear(16, dim)
        self.edge_bias = nn.Linear(16, heads)
        self.rel_bias = nn.Embedding(2 * max_rel + 1, heads)
        self.encoder = nn.ModuleList([PairAttention(dim, heads) for _ in range(2)])
        self.seq_emb = nn.Embedding(n_aa, dim)
        self.decoder = nn.ModuleList([PairAttention(dim, heads) for _ in range(2)])
        self.out = nn.Linear(dim, n_aa)

    def forward(self, X, S, mask, noise):
        B, L, _ = X.shape
        dist = torch.cdist(X, X)
        m = mask[:, None, :, None].float()
        h = self.node_in((rbf(dist) * m).sum(2) / m.sum(2))              # contact-density descriptor
        idx = torch.arange(L, device=X.device)
        rel = (idx[None, :] - idx[:, None]).clamp(-self.max_rel, self.max_rel) + self.max_rel
        bias = self.edge_bias(rbf(dist)) + self.rel_bias(rel)
        for layer in self.encoder:
            h = layer(h, h.unsqueeze(1).expand(B, L, L, -1), bias, mask)
        visible = backward_mask(decoding_ranks(noise, mask)).unsqueeze(-1).float()
        h_S = self.seq_emb(S).unsqueeze(1)                                 # (B, 1, L, D)
        h_enc = h.unsqueeze(1)
        for layer in self.decoder:
            # decoded residues: decoder state + identity; the rest: encoder state only
            kv = visible * (h.unsqueeze(1) + h_S) + (1.0 - visible) * h_enc
            h = layer(h, kv, bias, mask)
        return self.out(h)


def build():
    torch.manual_seed(0)
    model = InverseFolding().eval()
    B, L = 2, 14
    X = torch.cumsum(torch.randn(B, L, 3) * 2.2, dim=1)                    # CA trace
    mask = torch.arange(L)[None] < torch.tensor([[14], [10]])
    S = torch.randint(0, 21, (B, L)) * mask
    noise = torch.rand(B, L)
    return model, (X, S, mask, noise)
