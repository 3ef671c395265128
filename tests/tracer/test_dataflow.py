"""Dataflow.ancestors: the walk every "what was this value made from" question shares."""

from __future__ import annotations

import torch
from torch import nn

import tracer


class Chain(nn.Module):
    def forward(self, x, y):
        a = x + 1       # from x
        b = a * y       # from a and y
        return b.relu(), x.sum()


def _recorded():
    model = Chain()
    with tracer.trace(model) as t:
        model(torch.randn(2, 3), torch.randn(2, 3))
    return t.analysis


def test_ancestors_reach_every_input_once_and_stop_at_the_limit() -> None:
    analysis = _recorded()
    flow, recording = analysis.flow, analysis.recording
    relu = next(e for e in recording.events if e.op == "relu")
    found = list(flow.ancestors(relu.outputs[0].vid))
    assert len(found) == len(set(found))
    names = {recording.sources[vid].name for vid in found if vid in recording.sources}
    assert names == {"x", "y"}
    unrelated = next(e for e in recording.events if e.op == "sum").outputs[0].vid
    assert unrelated not in found  # x.sum() is made from x, not before relu
    assert list(flow.ancestors(relu.outputs[0].vid, limit=2)) == found[:2]
