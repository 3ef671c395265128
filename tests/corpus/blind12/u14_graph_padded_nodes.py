"""Sparse graph transformer (Dwivedi & Bresson style) on batches of padded molecular graphs.

Graphs are padded to N nodes; `adj` is the (B, N, N) 0/1 adjacency and `node_mask` marks
real atoms. Each node attends to its neighbours and to itself; a masked mean over the real
nodes gives the graph embedding used for property regression.
"""
import math

import torch
import torch.nn as nn


class GraphAttentionLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dk = heads, dim // heads
        self.Q = nn.Linear(dim, dim)
        self.K = nn.Linear(dim, dim)
        self.V = nn.Linear(dim, dim)
        self.O = nn.Linear(dim, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, x, allowed):
        B, N, D = x.shape
        q = self.Q(x).view(B, N, self.h, self.dk).permute(0, 2, 1, 3)
        k = self.K(x).view(B, N, self.h, self.dk).permute(0, 2, 1, 3)
        v = self.V(x).view(B, N, self.h, self.dk).permute(0, 2, 1, 3)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dk)
        scores = scores.masked_fill(~allowed[:, None], float("-inf"))
        attn = torch.softmax(scores, dim=-1)
        h = torch.matmul(attn, v).permute(0, 2, 1, 3).reshape(B, N, D)
        x = self.norm1(x + self.O(h))
        return self.norm2(x + self.ffn(x))


class MoleculeGT(nn.Module):
    def __init__(self, n_atom_types=12, dim=32, heads=4, layers=2):
        super().__init__()
        self.atom_emb = nn.Embedding(n_atom_types, dim)
        self.layers = nn.ModuleList([GraphAttentionLayer(dim, heads) for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, atoms, adj, node_mask):
        loops = torch.diag_embed(node_mask)  # every real atom also attends to itself
        allowed = adj.bool() | loops
        x = self.atom_emb(atoms)
        for layer in self.layers:
            x = layer(x, allowed)
        m = node_mask[..., None].float()
        graph = (x * m).sum(1) / m.sum(1)
        return self.readout(graph).squeeze(-1)


def random_graph(n, N, g):
    a = (torch.rand(n, n, generator=g) < 0.4).float().triu(1)
    a = a + a.t()
    out = torch.zeros(N, N)
    out[:n, :n] = a
    return out


def build():
    torch.manual_seed(14)
    g = torch.Generator().manual_seed(14)
    model = MoleculeGT().eval()
    sizes = [9, 6, 4]
    N = 9
    adj = torch.stack([random_graph(n, N, g) for n in sizes])
    node_mask = torch.arange(N)[None] < torch.tensor(sizes)[:, None]
    atoms = torch.randint(1, 12, (3, N)) * node_mask
    return model, (atoms, adj, node_mask)
