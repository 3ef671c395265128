"""positional-axis: a position table must vary along the sequence axis."""

from __future__ import annotations

from typing import Iterable

from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check


HINTS = {"batch-first": "for x of shape (B, T, d), table[:x.size(1)] shaped (T, d) (rotary cos/sin: (T, d_h) "
                        "against q of shape (B, H, T, d_h))",
         "seq-first": "for x of shape (T, B, d), table[:x.size(0)] shaped (T, 1, d)"}


def _table_construction(analysis, conflict) -> tuple:
    """Where the position table that met the wrong axis was built (or registered)."""
    event = analysis.recording.events[conflict.event]
    for meta in event.inputs:
        if any(analysis.table.axes[axis].kind == "pos" for axis in analysis.axes_of(meta)):
            return construction(analysis, meta.vid, "position table built here", conflict.event)
    return ()


def _index_arithmetic(analysis, index: int) -> bool:
    """An integer result (`beam + arange(B) * K`, row offsets into a flattened batch) is bookkeeping
    of indices, not a table of positions added to the data: a table meets the data as floats."""
    outputs = analysis.recording.events[index].outputs
    return bool(outputs) and not any(meta.dtype.startswith(("float", "bfloat", "complex")) for meta in outputs)


class PositionalAxis(Check):
    code = "positional-axis"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        table = analysis.table
        for conflict in analysis.table.conflicts:
            if conflict.reason != "positional" or _index_arithmetic(analysis, conflict.event):
                continue
            first, _second = table.get(conflict.first), table.get(conflict.second)
            position, other = (conflict.first, conflict.second) if first.kind == "pos" else (conflict.second, conflict.first)
            kind = table.get(other).kind
            if kind == "merged":  # the batch folded with other axes (series × channels): the batch it holds
                kind = "batch"
            why = analysis.evidence(other, kind) if kind in ("batch", "feature") else ""
            yield self.at(
                analysis, conflict.event,
                f"a position-dependent table varies along {table.describe(other)} ({kind} axis) "
                f"instead of the sequence axis: its positions {table.describe(position)} line up with "
                f"the {kind}" + (f" ({why})" if why else ""),
                hint="cut and broadcast the table so its positions meet the sequence axis: " + HINTS[analysis.layout.name],
                related=_table_construction(analysis, conflict),
            )
