"""Scientific figure type classification (plot / diagram / table / photo / equation).

A convolutional stem produces patch tokens; a learnable [CLS] token and a global image
statistics token (per-image channel mean and std of the stem features, on purpose: figures are
strongly characterized by their ink density) are prepended before a small Transformer encoder."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StatsToken(nn.Module):
    """summarizes the patch tokens of one image into an extra token"""

    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(2 * d, d)

    def forward(self, patches):
        mu = patches.mean(dim=1)
        sd = patches.std(dim=1)
        return self.proj(torch.cat([mu, sd], -1)).unsqueeze(1)


class FigureClassifier(nn.Module):
    def __init__(self, n_classes=5, d=32, heads=4, depth=2, patch=4, img=32):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, d // 2, 3, padding=1), nn.GELU(), nn.Conv2d(d // 2, d, patch, stride=patch))
        n = (img // patch) ** 2
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, n + 2, d) * 0.02)
        self.stats = StatsToken(d)
        layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.1, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, depth, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d)
        self.head = nn.Linear(d, n_classes)

    def forward(self, pixel_values):
        p = self.stem(pixel_values).flatten(2).transpose(1, 2)      # (B, N, d)
        cls = self.cls.expand(p.size(0), -1, -1)
        x = torch.cat([cls, self.stats(p), p], 1) + self.pos
        x = self.encoder(x)
        return self.head(self.norm(x[:, 0]))


def build():
    torch.manual_seed(0)
    model = FigureClassifier().eval()
    return model, (torch.randn(3, 3, 32, 32),)
