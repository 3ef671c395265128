"""One-pass variance `E[x^2] - E[x]^2` in a hand-written LayerNorm goes negative: sqrt gives NaN.

The input features are raw sensor readings around 300 (kelvin) with a spread of 0.01. In
float32, E[x^2] ~ 9e4 carries a rounding error of ~0.01, far larger than the true variance
(~1e-4), so the difference comes out negative for several tokens, var + eps is still
negative, and `torch.sqrt` returns NaN. Fix: the two-pass form
`((x - mean) ** 2).mean(-1, keepdim=True)` (or nn.LayerNorm).
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ("nan",)


class InputNorm(nn.Module):
    def __init__(self, d: int = 16, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = (x * x).mean(dim=-1, keepdim=True) - mean * mean
        std = torch.sqrt(var + self.eps)  # BUG: nan
        return self.gamma * (x - mean) / std + self.beta


class SensorEncoder(nn.Module):
    def __init__(self, d: int = 16, n_heads: int = 2):
        super().__init__()
        self.norm = InputNorm(d)
        self.attn = nn.MultiheadAttention(d, n_heads, batch_first=True)

    def forward(self, readings):  # (B, T, d) raw readings
        h = self.norm(readings)
        out, _ = self.attn(h, h, h)
        return h + out


def build():
    torch.manual_seed(0)
    model = SensorEncoder().eval()
    readings = 300.0 + 0.01 * torch.randn(2, 5, 16)
    return model, (readings,)
