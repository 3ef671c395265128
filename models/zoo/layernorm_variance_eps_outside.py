"""Hand-written LayerNorm adds eps outside the square root: `(x - mean) / (sqrt(var) + eps)`.

The standard formula is (x - mean) / sqrt(var + eps). The two agree only while var >> eps;
for a token with a small variance (here the first token of sample 0, a near-constant
"silence" frame) the results differ by a large factor and no longer match nn.LayerNorm.
Fix: `(x - mean) / torch.sqrt(var + eps)`.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("layernorm-variance",)


class Norm(nn.Module):
    def __init__(self, features: int = 16, eps: float = 1e-5):
        super().__init__()
        self.a = nn.Parameter(torch.ones(features))
        self.b = nn.Parameter(torch.zeros(features))
        self.eps = eps

    def forward(self, x):  # x: (T, B, d), sequence-first
        mean = x.mean(-1, keepdim=True)
        var = x.var(-1, keepdim=True, unbiased=False)
        return self.a * (x - mean) / (torch.sqrt(var) + self.eps) + self.b  # BUG: layernorm-variance


class PreNormSublayer(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.norm = Norm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 32), nn.GELU(), nn.Linear(32, d_model))

    def forward(self, x):
        return x + self.ff(self.norm(x))


def build():
    torch.manual_seed(0)
    model = PreNormSublayer().eval()
    x = torch.randn(5, 2, 16)
    x[0, 0] = 0.5 + 0.002 * torch.randn(16)  # a near-constant token: variance ~4e-6
    return model, (x,)
