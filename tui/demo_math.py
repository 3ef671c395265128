"""The course's interactive page, computed: attention and LayerNorm by COURSE.md's formulas.

C = softmax(Q K^T / sqrt(d_k) + M) V with the softmax over the key axis, row by row, and
M = -inf where a key is hidden (causal: keys after the query; padding: the last keys).
LayerNorm, per position t over its d features: mu_t = mean, v_t = mean of squared
deviations (divisor d), x̂ = (x - mu_t) / sqrt(v_t + eps), y = gamma ⊙ x̂ + beta.

Written out here rather than imported, because `tui` must not depend on `models`; the
tests check every number against `models.reference`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import torch

T_RANGE = (2, 8)
D_RANGE = (1, 8)
EPS = 1e-5


@dataclass(frozen=True)
class DemoSettings:
    """What the demo's keys change."""

    seed: int = 0
    length: int = 4  # T: number of tokens (queries = keys, self-attention)
    d_k: int = 3
    causal: bool = False
    padding: bool = False

    def padded_keys(self) -> int:
        """How many trailing keys are padding when the padding mask is on (at least one real key)."""
        return max(1, self.length // 3) if self.padding else 0

    def changed(self, **changes: object) -> "DemoSettings":
        updated = replace(self, **changes)
        length = min(max(updated.length, T_RANGE[0]), T_RANGE[1])
        d_k = min(max(updated.d_k, D_RANGE[0]), D_RANGE[1])
        return replace(updated, length=length, d_k=d_k, seed=max(0, updated.seed))


@dataclass(frozen=True, eq=False)  # compared by identity: each compute() is a new page
class DemoResult:
    q: torch.Tensor  # (T, d_k)
    k: torch.Tensor  # (T, d_k)
    v: torch.Tensor  # (T, d_k)
    scores: torch.Tensor  # (T, T): Q K^T / sqrt(d_k), -inf where hidden
    hidden: torch.Tensor  # bool (T, T)
    weights: torch.Tensor  # (T, T), rows sum to 1
    output: torch.Tensor  # (T, d_k)
    x: torch.Tensor  # (T, d_k): LayerNorm's input (the attention output plus the residual V)
    mean: torch.Tensor  # (T,)
    var: torch.Tensor  # (T,)
    standardized: torch.Tensor  # (T, d_k)
    gamma: torch.Tensor  # (d_k,)
    beta: torch.Tensor  # (d_k,)
    normalized: torch.Tensor  # (T, d_k)


def random_inputs(settings: DemoSettings) -> tuple[torch.Tensor, ...]:
    """Q, K, V, gamma, beta drawn from the seed: the same seed always gives the same page."""
    generator = torch.Generator().manual_seed(settings.seed)
    shape = (settings.length, settings.d_k)
    q, k, v = (torch.randn(shape, generator=generator) for _ in range(3))
    gamma = 1 + 0.5 * torch.randn(settings.d_k, generator=generator)
    beta = 0.5 * torch.randn(settings.d_k, generator=generator)
    return q, k, v, gamma, beta


def hidden_keys(settings: DemoSettings) -> torch.Tensor:
    """bool (T, T), True where query i may NOT read key j."""
    length = settings.length
    hidden = torch.zeros(length, length, dtype=torch.bool)
    if settings.causal:
        hidden |= torch.ones(length, length, dtype=torch.bool).triu(diagonal=1)
    padded = settings.padded_keys()
    if padded:
        hidden[:, length - padded:] = True
    return hidden


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, hidden: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """(scores, weights, output): scaled scores, -inf fill BEFORE the softmax, stable softmax over keys."""
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
    scores = scores.masked_fill(hidden, float("-inf"))
    row_max = scores.amax(dim=-1, keepdim=True)  # over the visible keys: -inf never wins
    exp_scores = torch.exp(scores - row_max)
    weights = exp_scores / exp_scores.sum(dim=-1, keepdim=True)
    return scores, weights, weights @ v


def layer_norm(x: torch.Tensor, gamma: torch.Tensor, beta: torch.Tensor, eps: float = EPS) -> tuple[torch.Tensor, ...]:
    """(mean, var, standardized, output) per position, over the last axis, divisor d."""
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    standardized = (x - mean) / torch.sqrt(var + eps)
    return mean.squeeze(-1), var.squeeze(-1), standardized, gamma * standardized + beta


def compute(settings: DemoSettings) -> DemoResult:
    q, k, v, gamma, beta = random_inputs(settings)
    hidden = hidden_keys(settings)
    scores, weights, output = attention(q, k, v, hidden)
    x = output + v  # a residual sum, as a Transformer layer feeds its LayerNorm
    mean, var, standardized, normalized = layer_norm(x, gamma, beta)
    return DemoResult(q, k, v, scores, hidden, weights, output, x, mean, var, standardized, gamma, beta, normalized)
