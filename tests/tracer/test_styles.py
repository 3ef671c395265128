"""The checks follow the general rule, not the zoo's spelling: other ways students write the same thing."""

from __future__ import annotations

import math

import pytest
import torch
from torch import nn

import tracer


class Heads(nn.Module):
    """Correct projections and head split; subclasses write the part under test."""

    def __init__(self, d: int = 16, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def project(self, x):
        B, T, d = x.shape
        split = lambda t: t.view(B, T, self.heads, d // self.heads).transpose(1, 2)  # noqa: E731
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        return q, k, v, q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))


def causal(T: int, diagonal: int = 1) -> torch.Tensor:
    return torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal)


class SetItemCausal(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        scores[causal(x.size(1)).expand_as(scores)] = float("-inf")
        return scores.softmax(-1) @ v


class SetItemZero(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        scores[causal(x.size(1)).expand_as(scores)] = 0
        return scores.softmax(-1) @ v


class SetItemDiagonal(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        scores[causal(x.size(1), 0).expand_as(scores)] = -1e9
        return scores.softmax(-1) @ v


class SetItemAfterSoftmax(Heads):
    def forward(self, x, mask):
        q, k, v, scores = self.project(x)
        weights = scores.softmax(-1)
        weights[(mask[:, None, None, :] == 0).expand_as(weights)] = 0
        return weights @ v


class ImplicitSoftmaxDim(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        return nn.functional.softmax(scores) @ v  # legacy implicit dim: 1 on a 4-d table (heads)


class TinyNegativeFill(Heads):
    def forward(self, x, mask):
        q, k, v, scores = self.project(x)
        return scores.masked_fill(mask[:, None, None, :] == 0, -1e-9).softmax(-1) @ v


class LearnedTemperature(Heads):
    def __init__(self):
        super().__init__()
        self.temperature = nn.Parameter(torch.tensor(1.0))

    def forward(self, x):
        q, k, v, _ = self.project(x)
        return (q @ k.transpose(-2, -1) * self.temperature).softmax(-1) @ v


class QuerySoftmaxViaTranspose(Heads):
    def forward(self, x):
        q, k, v, scores = self.project(x)
        weights = scores.transpose(-2, -1).softmax(-1).transpose(-2, -1)  # normalized over queries
        return weights @ v


X = torch.randn(2, 5, 16)
PADDING = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]])
CASES = [
    (SetItemCausal, (X,), set()),
    (SetItemZero, (X,), {"mask-value"}),
    (SetItemDiagonal, (X,), {"causal-diagonal", "fully-masked-row"}),
    (SetItemAfterSoftmax, (X, PADDING), {"mask-after-softmax"}),
    (ImplicitSoftmaxDim, (X,), {"softmax-axis"}),
    (TinyNegativeFill, (X, PADDING), {"mask-value"}),
    (LearnedTemperature, (X,), set()),
    (QuerySoftmaxViaTranspose, (X,), {"softmax-axis"}),
]


@pytest.mark.parametrize("model, args, expected", CASES, ids=[case[0].__name__ for case in CASES])
def test_style(model, args, expected):
    torch.manual_seed(0)
    report = tracer.check(model().eval(), *args)
    assert {f.code for f in report.findings if f.severity in ("error", "warning")} == expected
