"""Hand-written LayerNorm on (B, T, d) takes its statistics with `x.mean(dim=1)`: over the sequence, not the features.

Layer normalization standardizes each token over its own d features (dim=-1). With dim=1
the mean and variance are taken over the T positions of each feature, so every token's
output depends on the other tokens of the sequence (and on the sequence length, and on
padding). Fix: `mean(dim=-1, keepdim=True)` and `var(dim=-1, ...)`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("layernorm-axis",)


class MyLayerNorm(nn.Module):
    def __init__(self, d_model: int = 16, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(d_model))
        self.beta = nn.Parameter(torch.zeros(d_model))

    def forward(self, x):  # x: (B, T, d)
        mean = x.mean(dim=1, keepdim=True)  # BUG: layernorm-axis
        var = ((x - mean) ** 2).mean(dim=1, keepdim=True)
        return self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta


class FFNBlock(nn.Module):
    def __init__(self, d_model: int = 16, d_ff: int = 32):
        super().__init__()
        self.norm = MyLayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))

    def forward(self, x):
        return x + self.ffn(self.norm(x))


def build():
    torch.manual_seed(0)
    model = FFNBlock().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
