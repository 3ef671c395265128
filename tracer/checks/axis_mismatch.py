"""axis-mismatch: two different sequences (or the query and key copies of one) combined as if aligned."""

from __future__ import annotations

from typing import Iterable

from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check


class AxisMismatch(Check):
    code = "axis-mismatch"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        table = analysis.table
        apart = _attended_pairs(analysis)
        for conflict in table.conflicts:
            pair = frozenset((table.sequence_of(conflict.first), table.sequence_of(conflict.second)))
            if conflict.reason == "sequences" and pair not in apart:
                continue  # two inputs never told apart by the model may be aligned by construction
            if conflict.reason not in ("sequences", "roles"):
                continue
            event = analysis.recording.events[conflict.event]
            a, b = table.describe(conflict.first), table.describe(conflict.second)
            what = ("the query and key positions of one score table" if conflict.reason == "roles"
                    else "two different sequences that only happen to have the same length")
            yield self.at(
                analysis, conflict.event,
                f"{event.op} combines {a} with {b}: {what}",
                hint="a residual adds tensors over the same positions, and cross-attention takes its queries "
                     "from the decoder and its keys and values from the encoder: check where each operand comes from",
                related=_operands_built(analysis, event, (conflict.first, conflict.second)),
            )


def _attended_pairs(analysis) -> set[frozenset]:
    """Pairs of sequences one attends to the other: the model itself treats them as different."""
    table, pairs = analysis.table, set()
    for block in analysis.blocks:
        seqs = {table.sequence_of(axis) for axis in block.table_axes if table.get(axis).role}
        if len(seqs) == 2 and None not in seqs:
            pairs.add(frozenset(seqs))
    return pairs


def _operands_built(analysis, event, axes: tuple[int, int]) -> tuple:
    """Where each of the two operands was made, named by the axis it brought."""
    table, notes = analysis.table, []
    for meta in event.inputs[:2]:
        carried = [axis for axis in axes if any(table.same(axis, own) for own in analysis.axes_of(meta))]
        maker = analysis.flow.made_by(meta.vid)
        if maker is not None and (maker.file, maker.line) == (event.file, event.line):
            continue  # made on the finding's own line: the line shown already
        if carried:
            notes += construction(analysis, meta.vid, f"{table.describe(carried[0])} made here", event.index, limit=1)
    return tuple(notes)

