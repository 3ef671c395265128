"""Hand-written LayerNorm uses the unbiased variance: `torch.var(x, dim=-1, unbiased=True)` divides by d - 1.

Layer normalization divides the squared deviations by d, not d - 1: it is a property of
this token's d features, not an estimate of a population. With d = 16 the output is scaled
by sqrt(15/16) ~ 0.968, so it no longer matches nn.LayerNorm (and the normalized features
no longer have mean square v / (v + eps)). Fix: `unbiased=False` (or `correction=0`).
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("layernorm-variance",)


class LayerNorm(nn.Module):
    def __init__(self, d_model: int = 16, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = torch.var(x, dim=-1, keepdim=True, unbiased=True)  # BUG: layernorm-variance
        return self.weight * (x - mean) / torch.sqrt(var + self.eps) + self.bias


class PreNormFFN(nn.Module):
    def __init__(self, d_model: int = 16):
        super().__init__()
        self.ln = LayerNorm(d_model)
        self.fc1 = nn.Linear(d_model, 4 * d_model)
        self.fc2 = nn.Linear(4 * d_model, d_model)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(self.ln(x))))


def build():
    torch.manual_seed(0)
    model = PreNormFFN().eval()
    x = torch.randn(2, 5, 16)
    return model, (x,)
