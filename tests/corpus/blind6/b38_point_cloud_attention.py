"""Point-cloud encoder: per-point MLP, self-attention over points, max pooling."""
import torch
import torch.nn as nn


class PointAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dk = dim // heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(B, N, self.heads, self.dk).permute(0, 2, 1, 3) for t in (q, k, v))
        energy = torch.matmul(q, k.transpose(2, 3)) / self.dk**0.5
        attention = torch.softmax(energy, dim=-2)
        out = torch.matmul(attention, v).permute(0, 2, 1, 3).reshape(B, N, C)
        return self.proj(out)


class PointEncoder(nn.Module):
    def __init__(self, dim=32, heads=4, depth=2, num_classes=8):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.attn = nn.ModuleList(PointAttention(dim, heads) for _ in range(depth))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.head = nn.Linear(dim, num_classes)

    def forward(self, points):
        x = self.embed(points)
        for attn, norm in zip(self.attn, self.norms):
            x = x + attn(norm(x))
        return self.head(x.amax(dim=1))


def build():
    torch.manual_seed(0)
    model = PointEncoder().eval()
    points = torch.randn(2, 12, 3)
    return model, (points,)
