"""Sparse graph transformer layer (GAT-like): each node attends to its neighbours and itself via an
additive adjacency bias; batches of graphs are padded to the same node count."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NeighbourAttention(nn.Module):
    def __init__(self, dim, heads, edge_dim):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.edge = nn.Linear(edge_dim, heads)
        self.o = nn.Linear(dim, dim)

    def forward(self, h, adj, edge_attr):
        B, N, _ = h.shape
        q = self.q(h).view(B, N, self.heads, self.dh).transpose(1, 2)
        k = self.k(h).view(B, N, self.heads, self.dh).transpose(1, 2)
        v = self.v(h).view(B, N, self.heads, self.dh).transpose(1, 2)
        bias = self.edge(edge_attr).permute(0, 3, 1, 2)  # (B, H, N, N)
        bias = bias.masked_fill(~adj[:, None], float("-inf"))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        return self.o(out.transpose(1, 2).reshape(B, N, -1))


class SparseGraphTransformer(nn.Module):
    def __init__(self, in_dim=7, edge_dim=4, dim=32, heads=4, depth=2, n_out=3):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.layers = nn.ModuleList(NeighbourAttention(dim, heads, edge_dim) for _ in range(depth))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.out = nn.Linear(dim, n_out)

    def forward(self, x, adj, edge_attr, node_mask):
        N = x.size(1)
        eye = torch.eye(N, dtype=torch.bool, device=x.device)
        adj = (adj.bool() & node_mask[:, :, None] & node_mask[:, None, :]) | eye
        h = self.inp(x)
        for attn, norm in zip(self.layers, self.norms):
            h = h + attn(norm(h), adj, edge_attr)
        return self.out(h)


def build():
    torch.manual_seed(0)
    model = SparseGraphTransformer().eval()
    B, N = 3, 10
    node_mask = torch.arange(N)[None] < torch.tensor([10, 6, 8])[:, None]
    adj = torch.rand(B, N, N) < 0.35
    adj = adj | adj.transpose(1, 2)
    x = torch.randn(B, N, 7)
    edge_attr = torch.randn(B, N, N, 4)
    return model, (x, adj, edge_attr, node_mask)
