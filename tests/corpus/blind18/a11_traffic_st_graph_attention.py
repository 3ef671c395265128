"""Spatio-temporal graph attention for traffic speed forecasting (GMAN/ASTGNN flavour).

Temporal attention is causal along the history of each sensor; spatial attention runs over the
road graph, restricted to each sensor's neighbours (self-loops included) through a boolean mask.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def split_heads(x, heads):
    *lead, d = x.shape
    return x.reshape(*lead, heads, d // heads).transpose(-3, -2)


def merge_heads(x):
    x = x.transpose(-3, -2)
    return x.reshape(*x.shape[:-2], -1)


class STBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.t_qkv = nn.Linear(d, 3 * d)
        self.s_qkv = nn.Linear(d, 3 * d)
        self.t_out, self.s_out = nn.Linear(d, d), nn.Linear(d, d)
        self.norm_t, self.norm_s, self.norm_f = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

    def forward(self, x, adj):  # x: (B, T, N, d), adj: (N, N) bool
        # temporal: each sensor attends to its own past
        h = self.norm_t(x).transpose(1, 2)  # (B, N, T, d)
        q, k, v = (split_heads(t, self.heads) for t in self.t_qkv(h).chunk(3, -1))
        t = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.t_out(merge_heads(t)).transpose(1, 2)
        # spatial: each sensor attends to its graph neighbours at the same step
        h = self.norm_s(x)
        q, k, v = (split_heads(t, self.heads) for t in self.s_qkv(h).chunk(3, -1))
        s = F.scaled_dot_product_attention(q, k, v, attn_mask=adj)
        x = x + self.s_out(merge_heads(s))
        return x + self.ff(self.norm_f(x))


class TrafficForecaster(nn.Module):
    def __init__(self, n_nodes=10, in_feats=2, d=32, heads=4, depth=2, horizon=3):
        super().__init__()
        self.inp = nn.Linear(in_feats, d)
        self.node_emb = nn.Parameter(torch.randn(n_nodes, d) * 0.1)
        self.blocks = nn.ModuleList([STBlock(d, heads) for _ in range(depth)])
        self.out = nn.Linear(d, horizon)

    def forward(self, speeds, adj):
        x = self.inp(speeds) + self.node_emb
        adj = adj.bool() | torch.eye(adj.size(0), dtype=torch.bool, device=adj.device)
        for blk in self.blocks:
            x = blk(x, adj)
        return self.out(x)  # (B, T, N, horizon): forecast issued at each step


def build():
    torch.manual_seed(0)
    model = TrafficForecaster().eval()
    speeds = torch.randn(3, 12, 10, 2)
    adj = (torch.rand(10, 10) < 0.3).long()
    adj = adj | adj.t()
    adj[4] = 0
    adj[:, 4] = 0
    return model, (speeds, adj)
