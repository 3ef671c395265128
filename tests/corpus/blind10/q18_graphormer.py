import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphNodeFeature(nn.Module):
    def __init__(self, num_atoms, num_degree, hidden):
        super().__init__()
        self.atom_encoder = nn.Embedding(num_atoms + 1, hidden, padding_idx=0)
        self.degree_encoder = nn.Embedding(num_degree, hidden, padding_idx=0)
        self.graph_token = nn.Embedding(1, hidden)

    def forward(self, x, degree):
        h = self.atom_encoder(x) + self.degree_encoder(degree)
        g = self.graph_token.weight.unsqueeze(0).expand(x.size(0), -1, -1)
        return torch.cat([g, h], dim=1)


class GraphAttnBias(nn.Module):
    def __init__(self, num_heads, num_spatial):
        super().__init__()
        self.num_heads = num_heads
        self.spatial_pos_encoder = nn.Embedding(num_spatial, num_heads, padding_idx=0)
        self.graph_token_virtual_distance = nn.Embedding(1, num_heads)

    def forward(self, attn_bias, spatial_pos):
        B, n = spatial_pos.shape[:2]
        bias = attn_bias.unsqueeze(1).repeat(1, self.num_heads, 1, 1)  # [B, H, n+1, n+1]
        spatial = self.spatial_pos_encoder(spatial_pos).permute(0, 3, 1, 2)
        bias[:, :, 1:, 1:] = bias[:, :, 1:, 1:] + spatial
        t = self.graph_token_virtual_distance.weight.view(1, self.num_heads, 1)
        bias[:, :, 1:, 0] = bias[:, :, 1:, 0] + t
        bias[:, :, 0, :] = bias[:, :, 0, :] + t
        return bias


class GraphormerLayer(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.o = nn.Linear(hidden, hidden)
        self.ffn = nn.Sequential(nn.Linear(hidden, 2 * hidden), nn.GELU(), nn.Linear(2 * hidden, hidden))

    def forward(self, x, bias):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-1, -2)) * (C // self.heads) ** -0.5 + bias
        y = attn.softmax(-1) @ v
        x = x + self.o(y.transpose(1, 2).reshape(B, T, C))
        return x + self.ffn(self.ln2(x))


class Graphormer(nn.Module):
    def __init__(self, num_atoms=20, hidden=32, heads=4, layers=2, n_out=1):
        super().__init__()
        self.node = GraphNodeFeature(num_atoms, 8, hidden)
        self.bias = GraphAttnBias(heads, 10)
        self.layers = nn.ModuleList(GraphormerLayer(hidden, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(hidden)
        self.out = nn.Linear(hidden, n_out)

    def forward(self, x, degree, spatial_pos, node_mask):
        B, n = x.shape
        attn_bias = torch.zeros(B, n + 1, n + 1)
        key_pad = torch.cat([torch.zeros(B, 1, dtype=torch.bool), ~node_mask], dim=1)
        attn_bias = attn_bias.masked_fill(key_pad[:, None, :], float("-inf"))
        bias = self.bias(attn_bias, spatial_pos)
        h = self.node(x, degree)
        for layer in self.layers:
            h = layer(h, bias)
        return self.out(self.ln(h[:, 0]))  # graph-level readout from the virtual token


def build():
    torch.manual_seed(0)
    model = Graphormer().eval()
    B, n = 2, 7
    sizes = [7, 4]
    node_mask = torch.zeros(B, n, dtype=torch.bool)
    x = torch.zeros(B, n, dtype=torch.long)
    degree = torch.zeros(B, n, dtype=torch.long)
    spatial_pos = torch.zeros(B, n, n, dtype=torch.long)
    for b, s in enumerate(sizes):
        node_mask[b, :s] = True
        x[b, :s] = torch.randint(1, 21, (s,))
        degree[b, :s] = torch.randint(1, 4, (s,))
        idx = torch.arange(s)
        spatial_pos[b, :s, :s] = (idx[:, None] - idx[None, :]).abs() + 1  # path graph distances, +1 shift
    return model, (x, degree, spatial_pos, node_mask)
