"""Set transformer classifier over variable-size point sets."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        # mask: (B, N) bool, True for real set elements
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) / (C // self.heads) ** 0.5
        scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        attn = F.softmax(scores, dim=-1)
        return self.out((attn @ v).transpose(1, 2).reshape(B, N, C))


class SAB(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = MaskedSelfAttention(dim, heads)
        self.norm1 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x, mask):
        x = self.norm1(x + self.attn(x, mask))
        return self.norm2(x + self.ff(x))


class SetClassifier(nn.Module):
    def __init__(self, in_dim=3, dim=32, heads=4, depth=2, num_classes=4):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.blocks = nn.ModuleList(SAB(dim, heads) for _ in range(depth))
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, num_classes))

    def forward(self, x, mask):
        h = self.embed(x)
        for blk in self.blocks:
            h = blk(h, mask)
        pooled = h.mean(dim=1)
        return self.head(pooled)


def build():
    torch.manual_seed(0)
    model = SetClassifier().eval()
    sizes = torch.tensor([10, 6, 4])
    mask = torch.arange(10)[None, :] < sizes[:, None]
    x = torch.randn(3, 10, 3) * mask[..., None]
    return model, (x, mask)
