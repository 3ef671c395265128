"""A speech enhancer whose hand-written feature norm before a per-band LSTM normalizes each frame over its features: correct.

The tensor is (B, bands, T, N); the statistics run over the N features of each frame, so no
frame reads another's. Twin of layernorm_axis_over_time_before_lstm.
"""

import torch
import torch.nn as nn

EXPECTED: tuple[str, ...] = ()


class BandNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.weight, self.bias, self.eps = nn.Parameter(torch.ones(dim)), nn.Parameter(torch.zeros(dim)), eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(dim=-1, keepdim=True)
        var = (x - mean).pow(2).mean(dim=-1, keepdim=True)
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight + self.bias


class BandLSTM(nn.Module):
    def __init__(self, bins: int = 4, feat: int = 16):
        super().__init__()
        self.project = nn.Linear(bins, feat)
        self.norm = BandNorm(feat)
        self.rnn = nn.LSTM(feat, feat, batch_first=True)

    def forward(self, spec: torch.Tensor) -> torch.Tensor:  # (B, bands, T, bins)
        B, K, T, _ = spec.shape
        z = self.norm(self.project(spec))
        h, _ = self.rnn(z.reshape(B * K, T, -1))
        return h.reshape(B, K, T, -1)


def build():
    torch.manual_seed(0)
    return BandLSTM().eval(), (torch.randn(2, 3, 12, 4),)
