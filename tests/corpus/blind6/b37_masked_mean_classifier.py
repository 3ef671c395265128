"""Set classifier with masked attention, masked mean pooling and masked max pooling."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, x, padding_mask):
        # padding_mask: (B, N) bool, True marks padding
        B, N, C = x.shape
        split = lambda t: t.view(B, N, self.heads, C // self.heads).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = q @ k.transpose(-1, -2) * (C // self.heads) ** -0.5
        scores = scores.masked_fill(padding_mask[:, None, None, :], float("-inf"))
        attn = F.softmax(scores, dim=-1)
        return self.o((attn @ v).transpose(1, 2).reshape(B, N, C))


class SetEncoder(nn.Module):
    def __init__(self, in_dim=6, dim=32, heads=4, num_classes=3):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.attn = MaskedAttention(dim, heads)
        self.norm = nn.LayerNorm(dim)
        self.rho = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU(), nn.Linear(dim, num_classes))

    def forward(self, x, padding_mask):
        h = self.phi(x)
        h = self.norm(h + self.attn(h, padding_mask))
        keep = (~padding_mask).unsqueeze(-1).to(h.dtype)
        mean = (h * keep).sum(dim=1) / keep.sum(dim=1).clamp(min=1.0)
        mx = h.masked_fill(padding_mask.unsqueeze(-1), float("-inf")).amax(dim=1)
        return self.rho(torch.cat([mean, mx], dim=-1))


def build():
    torch.manual_seed(0)
    model = SetEncoder().eval()
    x = torch.randn(3, 9, 6)
    padding_mask = torch.arange(9)[None, :] >= torch.tensor([9, 5, 2])[:, None]
    return model, (x, padding_mask)
