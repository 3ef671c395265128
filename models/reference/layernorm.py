"""Layer Normalization written out: statistics over the d features of each token only.

Batch size and sequence length never enter the statistics, so training and inference use the
same formula (unlike BatchNorm), and a padded token never changes another token's output.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


class LayerNorm(nn.Module):
    """y = gamma * (x - mu) / sqrt(v + eps) + beta over the last axis of x (..., d).

    mu and v are the mean and the variance of the token's d features, with divisor d (not
    d - 1). gamma and beta (size d) are shared by every sample and every position.
    """

    def __init__(self, d: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))

    def standardize(self, x: Tensor) -> Tensor:
        """(x - mu) / sqrt(v + eps), before gamma and beta: mean 0, mean square v / (v + eps)."""
        mu = x.mean(dim=-1, keepdim=True)
        v = ((x - mu) ** 2).mean(dim=-1, keepdim=True)  # divisor d: unbiased=False
        return (x - mu) / torch.sqrt(v + self.eps)

    def forward(self, x: Tensor) -> Tensor:
        """x (..., d) -> (..., d)."""
        return self.gamma * self.standardize(x) + self.beta
