import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    def __init__(self, in_dim, out_dim, heads=2, concat=True, negative_slope=0.2):
        super().__init__()
        self.heads = heads
        self.out_dim = out_dim
        self.concat = concat
        self.W = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.a_src = nn.Parameter(torch.randn(heads, out_dim) * 0.3)
        self.a_dst = nn.Parameter(torch.randn(heads, out_dim) * 0.3)
        self.bias = nn.Parameter(torch.zeros(heads * out_dim if concat else out_dim))
        self.negative_slope = negative_slope

    def forward(self, x, adj):
        B, N, _ = x.shape
        h = self.W(x).view(B, N, self.heads, self.out_dim)
        e_dst = (h * self.a_dst).sum(-1)
        e_src = (h * self.a_src).sum(-1)
        e = F.leaky_relu(e_dst.unsqueeze(2) + e_src.unsqueeze(1), self.negative_slope)
        e = e.masked_fill(~adj.unsqueeze(-1), float("-inf"))
        alpha = torch.softmax(e, dim=1)
        out = torch.einsum("bijh,bjhd->bihd", alpha, h)
        if self.concat:
            return out.reshape(B, N, -1) + self.bias
        return out.mean(dim=2) + self.bias


class GAT(nn.Module):
    def __init__(self, in_dim=12, hidden=8, heads=2, n_classes=4):
        super().__init__()
        self.gat1 = GATLayer(in_dim, hidden, heads)
        self.gat2 = GATLayer(hidden * heads, n_classes, 1, concat=False)

    def forward(self, x, adj):
        adj = adj | torch.eye(adj.shape[-1], dtype=torch.bool, device=adj.device)
        h = F.elu(self.gat1(x, adj))
        return self.gat2(h, adj)


def _ring_graph(B, N):
    adj = torch.zeros(B, N, N, dtype=torch.bool)
    for i in range(N - 1):
        adj[:, i, i + 1] = adj[:, i + 1, i] = True
    return adj


def build():
    torch.manual_seed(0)
    model = GAT().eval()
    x = torch.randn(2, 8, 12)
    adj = _ring_graph(2, 8)
    adj[1, 0, 4] = adj[1, 4, 0] = True
    return model, (x, adj)
