"""The witnesses' shared baseline is the recorded pass's outputs where that pass is one they could run."""

from __future__ import annotations

import torch
from torch import nn

import tracer
from tracer.witness.runner import identical


class _Encoder(nn.Module):
    def __init__(self, dropout: float = 0.0) -> None:
        super().__init__()
        self.proj, self.drop = nn.Linear(4, 4), nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.drop(self.proj(x)).softmax(-1)


def _witnesses(model: nn.Module) -> dict:
    torch.manual_seed(0)
    report = tracer.check(model, torch.randn(2, 3, 4))
    assert [f.code for f in report.findings if f.severity != "info"] == []
    return report.summary["witnesses"]


def test_a_deterministic_model_in_eval_mode_costs_no_baseline_forward() -> None:
    witnesses = _witnesses(_Encoder().eval())
    assert set(witnesses["ran"]) == {"repeat", "batch"} and witnesses["forwards"] == 2


def test_a_model_recorded_in_training_mode_gets_a_baseline_of_its_own() -> None:
    witnesses = _witnesses(_Encoder(dropout=0.5).train())  # the recorded pass dropped, the witnesses' do not
    assert set(witnesses["ran"]) == {"repeat", "batch"} and witnesses["forwards"] == 3


def test_identical_means_bit_for_bit_with_nan_where_nan() -> None:
    nan = torch.tensor([1.0, float("nan")])
    assert identical([("o", nan)], [("o", nan.clone())])
    assert not identical([("o", nan)], [("o", torch.tensor([1.0, 0.0]))])
    assert not identical([("o", nan)], [("p", nan)])
    assert not identical([("o", torch.tensor([1.0, 2.0]))], [("o", torch.tensor([1.0, 2.0 + 1e-6]))])
