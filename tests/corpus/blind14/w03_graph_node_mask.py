"""Graphormer-style graph classifier: full attention over the nodes of each padded graph with a
shortest-path-distance bias, mean readout over real nodes."""
import torch
import torch.nn as nn
from einops import rearrange


class SPDAttention(nn.Module):
    def __init__(self, dim, heads, max_dist=6):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.spd_bias = nn.Embedding(max_dist + 1, heads)
        self.max_dist = max_dist

    def forward(self, x, node_mask, spd):
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in self.to_qkv(x).chunk(3, dim=-1))
        scores = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale
        scores = scores + rearrange(self.spd_bias(spd.clamp(max=self.max_dist)), "b i j h -> b h i j")
        scores = scores.masked_fill(~node_mask[:, None, :, None], torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class GraphBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = SPDAttention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, node_mask, spd):
        x = x + self.attn(self.norm1(x), node_mask, spd)
        return x + self.mlp(self.norm2(x))


class GraphClassifier(nn.Module):
    def __init__(self, in_dim=9, dim=32, heads=4, depth=2, n_classes=2):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.blocks = nn.ModuleList(GraphBlock(dim, heads) for _ in range(depth))
        self.head = nn.Linear(dim, n_classes)

    def forward(self, node_feats, node_mask, spd):
        x = self.embed(node_feats)
        for blk in self.blocks:
            x = blk(x, node_mask, spd)
        m = node_mask.unsqueeze(-1).float()
        return self.head((x * m).sum(1) / m.sum(1))


def build():
    torch.manual_seed(0)
    model = GraphClassifier().eval()
    n_nodes = torch.tensor([12, 7, 9])
    node_mask = torch.arange(12)[None, :] < n_nodes[:, None]
    node_feats = torch.randn(3, 12, 9)
    spd = torch.randint(0, 8, (3, 12, 12))
    spd = torch.minimum(spd, spd.transpose(1, 2)) * (1 - torch.eye(12, dtype=torch.long))
    return model, (node_feats, node_mask, spd)
