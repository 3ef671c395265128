"""The witnesses' snapshot puts back exactly what a forward changed, in place, and leaves the rest alone."""

from __future__ import annotations

import torch
from torch import nn

from tracer.witness.state import BY_CONTENT, Snapshot


class _Holder:
    def __init__(self) -> None:
        self.step = 0


class _Stateful(nn.Module):
    """State of every kind a forward may write: a large and a small buffer, a counter, a list, a dict, an object."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("cache", torch.zeros(BY_CONTENT + 1))
        self.register_buffer("small", torch.zeros(3))
        self.calls = 0
        self.seen: list[int] = []
        self.table: dict[str, int] = {"a": 1}
        self.holder = _Holder()

    def forward(self, x: torch.Tensor, write: bool = True) -> torch.Tensor:
        if write:
            self.cache[:2] += 1
            self.small.data[0] = 7  # through `.data`: no version counter moves
            self.calls += 1
            self.seen.append(self.calls)
            self.table["b"] = 2
            self.holder.step += 1
            self.added = True
        return x + self.cache[0]


def test_what_a_forward_changed_is_put_back_in_place() -> None:
    model, x = _Stateful(), torch.ones(2)
    cache, small, seen, table, holder = model.cache, model.small, model.seen, model.table, model.holder
    snapshot = Snapshot.take(model, (x,), {})
    with torch.no_grad():
        model(x)
    assert snapshot.changed()
    snapshot.restore()
    assert model.cache is cache and float(cache.sum()) == 0.0
    assert model.small is small and float(small.sum()) == 0.0
    assert model.calls == 0 and model.seen is seen and seen == [] and model.table is table and table == {"a": 1}
    assert model.holder is holder and holder.step == 0 and not hasattr(model, "added")
    assert not snapshot.changed()


def test_state_a_forward_left_alone_is_not_copied_back() -> None:
    model, x = _Stateful(), torch.ones(2)
    snapshot = Snapshot.take(model, (x,), {})
    version = model.cache._version
    with torch.no_grad():
        model(x, write=False)
    assert not snapshot.changed()
    snapshot.restore()
    assert model.cache._version == version  # no copy_ into the large buffer


def test_training_flags_are_put_back_only_when_asked() -> None:
    model, x = _Stateful().train(), torch.ones(2)
    snapshot = Snapshot.take(model, (x,), {})
    model.eval()
    snapshot.restore(training=False)
    assert snapshot.in_eval() and not model.training
    snapshot.restore()
    assert model.training
