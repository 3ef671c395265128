import torch
import torch.nn as nn


class MaskedSelfAttentionBlock(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.ln2 = nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        h = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)[0]
        x = self.ln1(x + h)
        return self.ln2(x + self.ff(x))


class PointSetClassifier(nn.Module):
    def __init__(self, in_dim=3, d=32, heads=4, n_blocks=2, n_classes=5):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(in_dim, d), nn.ReLU(), nn.Linear(d, d))
        self.blocks = nn.ModuleList([MaskedSelfAttentionBlock(d, heads) for _ in range(n_blocks)])
        self.head = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, n_classes))

    def forward(self, points, n_points):
        B, N, _ = points.shape
        pad_mask = torch.arange(N, device=points.device)[None, :] >= n_points[:, None]
        x = self.embed(points)
        for blk in self.blocks:
            x = blk(x, pad_mask)
        pooled = x.mean(dim=1)
        return self.head(pooled)


def build():
    torch.manual_seed(0)
    model = PointSetClassifier().eval()
    points = torch.randn(2, 9, 3)
    n_points = torch.tensor([9, 5])
    return model, (points, n_points)
