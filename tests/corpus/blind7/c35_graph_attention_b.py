import torch
import torch.nn as nn
import torch.nn.functional as F


class GATv2Layer(nn.Module):
    def __init__(self, in_dim, out_dim, heads=2, negative_slope=0.2):
        super().__init__()
        self.heads = heads
        self.out_dim = out_dim
        self.lin_l = nn.Linear(in_dim, heads * out_dim)
        self.lin_r = nn.Linear(in_dim, heads * out_dim)
        self.att = nn.Parameter(torch.randn(heads, out_dim) * 0.3)
        self.negative_slope = negative_slope

    def forward(self, x, adj):
        B, N, _ = x.shape
        xl = self.lin_l(x).view(B, N, self.heads, self.out_dim)
        xr = self.lin_r(x).view(B, N, self.heads, self.out_dim)
        z = F.leaky_relu(xr.unsqueeze(2) + xl.unsqueeze(1), self.negative_slope)
        e = (z * self.att).sum(-1).permute(0, 3, 1, 2)
        e = e.masked_fill(~adj.unsqueeze(1), float("-inf"))
        alpha = e.softmax(dim=-1)
        out = torch.einsum("bhij,bjhd->bihd", alpha, xl)
        return out.reshape(B, N, self.heads * self.out_dim)


class GraphEncoder(nn.Module):
    def __init__(self, in_dim=12, hidden=8, heads=2, out_dim=6):
        super().__init__()
        self.layer = GATv2Layer(in_dim, hidden, heads)
        self.norm = nn.LayerNorm(hidden * heads)
        self.out = nn.Linear(hidden * heads, out_dim)

    def forward(self, x, adj):
        adj = adj | torch.eye(adj.shape[-1], dtype=torch.bool, device=adj.device).unsqueeze(0)
        return self.out(F.elu(self.norm(self.layer(x, adj))))


def build():
    torch.manual_seed(0)
    model = GraphEncoder().eval()
    x = torch.randn(2, 8, 12)
    adj = torch.zeros(2, 8, 8, dtype=torch.bool)
    for i in range(7):
        adj[:, i, i + 1] = adj[:, i + 1, i] = True
    adj[0, 2, 6] = adj[0, 6, 2] = True
    return model, (x, adj)
