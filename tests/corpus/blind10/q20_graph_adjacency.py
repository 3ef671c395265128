import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NeighbourhoodAttention(nn.Module):
    """Transformer attention restricted to graph neighbours (sparse graph transformer)."""

    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads, self.d_k = heads, dim // heads
        self.W = nn.Linear(dim, 3 * dim, bias=False)
        self.O = nn.Linear(dim, dim)
        self.norm1, self.norm2 = nn.BatchNorm1d(dim), nn.BatchNorm1d(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, h, adj):
        B, N, D = h.shape
        q, k, v = self.W(h).view(B, N, 3, self.heads, self.d_k).unbind(2)
        scores = torch.einsum("bihd,bjhd->bhij", q, k) / math.sqrt(self.d_k)
        scores = scores * adj.unsqueeze(1)
        attn = torch.softmax(scores, dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", attn, v).reshape(B, N, D)
        h = self.norm1((h + self.O(out)).transpose(1, 2)).transpose(1, 2)
        return self.norm2((h + self.ffn(h)).transpose(1, 2)).transpose(1, 2)


class GraphTransformer(nn.Module):
    def __init__(self, in_dim=8, dim=32, pe_dim=4, layers=2, n_cls=3):
        super().__init__()
        self.h_in = nn.Linear(in_dim, dim)
        self.lap_pe = nn.Linear(pe_dim, dim)
        self.layers = nn.ModuleList(NeighbourhoodAttention(dim) for _ in range(layers))
        self.cls = nn.Linear(dim, n_cls)

    def forward(self, x, lap_pe, adj, node_mask):
        h = self.h_in(x) + self.lap_pe(lap_pe)
        for layer in self.layers:
            h = layer(h, adj)
        return self.cls(h)  # node classification


def build():
    torch.manual_seed(0)
    model = GraphTransformer().eval()
    B, N = 2, 8
    sizes = [8, 5]
    node_mask = torch.zeros(B, N)
    adj = torch.zeros(B, N, N)
    for b, s in enumerate(sizes):
        node_mask[b, :s] = 1
        a = (torch.rand(s, s) < 0.35).float()
        a = ((a + a.t()) > 0).float()
        a.fill_diagonal_(1.0)  # self loops
        adj[b, :s, :s] = a
    x = torch.randn(B, N, 8) * node_mask[..., None]
    lap_pe = torch.randn(B, N, 4) * node_mask[..., None]
    return model, (x, lap_pe, adj, node_mask)
