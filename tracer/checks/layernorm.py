"""Hand-written layer norms, found by their centring step `x - x.mean(dims)`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator


@dataclass
class Centring:
    mean_event: int
    sub_event: int
    source_vid: int  # x
    centred_vid: int  # x - mean
    dims: tuple[int, ...]


def centrings(analysis) -> Iterator[Centring]:
    """Every `x - mean(x, dims)` whose result is then scaled (divided or multiplied), as norms do."""
    flow = analysis.flow
    for event in analysis.recording.ops("sub"):
        if len(event.inputs) != 2 or not event.outputs:
            continue
        mean = flow.made_by(event.inputs[1].vid)
        if mean is None or mean.op != "mean" or mean.inputs[0].vid != event.inputs[0].vid:
            continue
        centred = event.outputs[0].vid
        if not any(user.op in ("div", "mul", "pow") for user, _ in flow.users(centred)):
            continue
        yield Centring(mean.index, event.index, event.inputs[0].vid, centred, analysis.facts[mean.index].normalized)
