import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatialBiasAttention(nn.Module):
    def __init__(self, dim, heads, max_dist=8, n_edge_types=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.dist_bias = nn.Embedding(max_dist + 1, heads)
        self.edge_bias = nn.Embedding(n_edge_types, heads, padding_idx=0)

    def forward(self, x, dist, edge_type, node_mask):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        bias = (self.dist_bias(dist.clamp(max=8)) + self.edge_bias(edge_type)).permute(0, 3, 1, 2)
        scores = torch.einsum("bhid,bhjd->bhij", q, k) / (q.size(-1) ** 0.5) + bias
        pair = node_mask[:, :, None] & node_mask[:, None, :]
        scores = scores.masked_fill(~pair[:, None], float("-inf"))
        w = F.softmax(scores, dim=-1)
        y = torch.einsum("bhij,bhjd->bhid", w, v).transpose(1, 2).reshape(B, N, C)
        return self.out(y)


class MoleculeEncoder(nn.Module):
    def __init__(self, n_atom_types=12, dim=32, heads=4, depth=2):
        super().__init__()
        self.atom = nn.Embedding(n_atom_types, dim)
        self.centrality = nn.Embedding(6, dim)
        self.attn = nn.ModuleList(SpatialBiasAttention(dim, heads) for _ in range(depth))
        self.ffn = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU()) for _ in range(depth))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.readout = nn.Linear(dim, 1)

    def forward(self, atoms, degree, dist, edge_type, node_mask):
        h = self.atom(atoms) + self.centrality(degree)
        for attn, ffn, norm in zip(self.attn, self.ffn, self.norms):
            h = h + attn(norm(h), dist, edge_type, node_mask)
            h = h + ffn(h)
        m = node_mask.unsqueeze(-1).float()
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)
        return self.readout(pooled)


def build():
    torch.manual_seed(0)
    model = MoleculeEncoder().eval()
    B, N = 3, 6
    sizes = [6, 4, 5]
    node_mask = torch.arange(N)[None] < torch.tensor(sizes)[:, None]
    atoms = torch.randint(1, 12, (B, N)) * node_mask
    degree = torch.randint(1, 4, (B, N)) * node_mask
    idx = torch.arange(N)
    dist = (idx[:, None] - idx[None, :]).abs().expand(B, N, N).clone()
    edge_type = ((dist == 1).long() * torch.randint(1, 4, (B, N, N))) * (node_mask[:, :, None] & node_mask[:, None, :])
    return model, (atoms, degree, dist, edge_type, node_mask)
