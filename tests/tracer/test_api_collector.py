"""`run_check` pauses Python's cycle collector while it runs and leaves it as it found it."""

from __future__ import annotations

import gc

import pytest
import torch
from torch import nn

import tracer


class _Probe(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.collecting: list[bool] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.collecting.append(gc.isenabled())
        return self.proj(x)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_for_the_check_and_then_as_it_was(enabled: bool) -> None:
    model, before = _Probe().eval(), gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        tracer.check(model, torch.randn(2, 3, 4))
        assert model.collecting and not any(model.collecting)  # the recorded pass and every witness's
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if before else gc.disable)()


def test_the_collector_comes_back_when_the_check_raises() -> None:
    assert gc.isenabled()
    with pytest.raises(Exception):
        tracer.run_check(nn.Linear(2, 2), (torch.randn(2),), no_such_option=1)
    assert gc.isenabled()
