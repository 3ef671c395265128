"""Reshapes that tear axes: shared by head-split and head-merge."""

from __future__ import annotations

from typing import Iterator


RESHAPES = ("view", "reshape", "flatten", "unflatten", "_unsafe_view")


def torn_reshapes(analysis) -> Iterator[tuple[object, tuple[str, ...], bool]]:
    """Each reshape whose output has a mixed axis, the kinds it mixed (in memory order, outermost
    first), and whether it was a split.

    A reshape that leaves the last (feature) dimension no wider is splitting into heads (even
    `(B, T, H, d_h)` to `(B, H, T, d_h)`, a reshape used for a transpose); one that widens it
    (`d_h` back to `d`) is merging.
    """
    table = analysis.table
    for event in analysis.recording.ops(*RESHAPES):
        if not event.outputs:
            continue
        for axis in analysis.axes.get(event.outputs[0].vid, ()):
            record = table.get(axis)
            if record.kind == "mixed" and record.origin == event.index:
                kinds = tuple(kind for part in record.parts for kind in _piece_kinds(table, part))
                splitting = event.outputs[0].shape[-1:] <= event.inputs[0].shape[-1:]
                yield event, kinds, splitting
                break


def _piece_kinds(table, axis: int) -> tuple[str, ...]:
    """A piece's kind; one sequence joined to itself again and again (each head's output laid along
    time, `torch.cat(outs, dim=1)`) is heads in front of positions."""
    record = table.get(axis)
    pieces = {table.find(table.base_of(piece)) for piece in record.joined}
    if len(record.joined) >= 2 and len(pieces) == 1:
        return ("head", "seq")
    return (_piece_kind(table, axis),)


def _piece_kind(table, axis: int) -> str:
    record = table.get(axis)
    if table.is_positions(axis) or (record.role and record.kind == "mixed"):  # a torn axis attended over
        return "seq"  # is the positions, to the model
    if record.kind == "head" or (record.kind == "feature" and record.base is not None):
        return "head"
    if record.parts and record.kind in ("merged", "batch"):  # B·H (a batch of heads) counts as heads
        kinds = {_piece_kind(table, p) for p in record.parts}
        return "seq" if "seq" in kinds else "head" if "head" in kinds else record.kind
    return record.kind
