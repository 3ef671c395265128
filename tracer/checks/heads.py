"""Reshapes that tear axes: shared by head-split and head-merge."""

from __future__ import annotations

from typing import Iterator

from ..axes import SEQ_LIKE

RESHAPES = ("view", "reshape", "flatten", "unflatten", "_unsafe_view")


def torn_reshapes(analysis) -> Iterator[tuple[object, set[str], int]]:
    """Each reshape whose output has a mixed axis, with the kinds it mixed and that axis."""
    table = analysis.table
    for event in analysis.recording.ops(*RESHAPES):
        if not event.outputs:
            continue
        for axis in analysis.axes.get(event.outputs[0].vid, ()):
            record = table.get(axis)
            if record.kind == "mixed" and record.origin == event.index:
                kinds = {_piece_kind(table, part) for part in record.parts}
                yield event, kinds, axis
                break


def _piece_kind(table, axis: int) -> str:
    record = table.get(axis)
    if record.kind in SEQ_LIKE:
        return "seq"
    if record.kind == "head" or (record.kind == "feature" and record.base is not None):
        return "head"
    if record.kind == "merged" and record.parts:
        kinds = {_piece_kind(table, p) for p in record.parts}
        return "seq" if "seq" in kinds else "head" if "head" in kinds else record.kind
    return record.kind
