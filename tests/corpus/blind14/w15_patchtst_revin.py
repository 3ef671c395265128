"""Channel-independent patch transformer for multivariate forecasting with instance normalization.
Each variable of each series is normalized by its own statistics over the look-back window."""
import torch
import torch.nn as nn
from einops import rearrange


class InstanceNorm(nn.Module):
    def __init__(self, eps=1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, x, mode):  # x: (B, L, C)
        if mode == "norm":
            self.loc = x.mean(dim=1, keepdim=True)
            self.scale = (x.var(dim=1, keepdim=True, unbiased=False) + self.eps).sqrt()
            return (x - self.loc) / self.scale
        return x * self.scale + self.loc


class PatchForecaster(nn.Module):
    def __init__(self, seq_len=24, pred_len=8, patch=6, d_model=32, heads=4, depth=2):
        super().__init__()
        self.patch = patch
        n = seq_len // patch
        self.norm = InstanceNorm()
        self.embed = nn.Linear(patch, d_model)
        self.pos = nn.Parameter(torch.randn(1, n, d_model) * 0.02)
        self.blocks = nn.ModuleList(
            nn.TransformerEncoderLayer(d_model, heads, 2 * d_model, dropout=0.1, batch_first=True, norm_first=True)
            for _ in range(depth)
        )
        self.head = nn.Linear(n * d_model, pred_len)

    def forward(self, series):
        B, L, C = series.shape
        x = self.norm(series, "norm")
        x = rearrange(x, "b (n p) c -> (b c) n p", p=self.patch)
        h = self.embed(x) + self.pos
        for blk in self.blocks:
            h = blk(h)
        y = self.head(rearrange(h, "(b c) n d -> b c (n d)", b=B))
        return self.norm(rearrange(y, "b c t -> b t c"), "denorm")


def build():
    torch.manual_seed(0)
    model = PatchForecaster().eval()
    t = torch.arange(24, dtype=torch.float32)
    base = torch.stack([torch.sin(t / 4), torch.cos(t / 5) * 3 + 10, t / 10], dim=-1)
    series = base[None] * torch.tensor([1.0, 0.5, 2.0])[:, None, None] + 0.1 * torch.randn(3, 24, 3)
    return model, (series,)
