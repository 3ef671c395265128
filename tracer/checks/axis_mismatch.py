"""axis-mismatch: two different sequences (or the query and key copies of one) combined as if aligned."""

from __future__ import annotations

from typing import Iterable

from ..blocks import attended_pairs
from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check


class AxisMismatch(Check):
    code = "axis-mismatch"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        table = analysis.table
        apart = attended_pairs(table, analysis.blocks)
        for conflict in table.conflicts:
            if conflict.reason == "sequences" and not _apart(table, apart, conflict.first, conflict.second):
                continue  # two inputs never told apart by the model may be aligned by construction
            event = analysis.recording.events[conflict.event]
            if conflict.reason == "roles" and _symmetrized(analysis, event):
                continue  # a table added to its own transpose: made symmetric on purpose (a contact map)
            crossed = conflict.reason == "kinds" and event.op in ELEMENTWISE and _batch_meets_positions(
                table, conflict.first, conflict.second)
            if conflict.reason not in ("sequences", "roles") and not crossed:
                continue
            a, b = table.describe(conflict.first), table.describe(conflict.second)
            what = ("the query and key positions of one score table" if conflict.reason == "roles"
                    else "the batch and a sequence, lined up only because they have the same size (a (T, B, d) "
                         "tensor combined with a (B, T, d) one)" if crossed
                    else "two different sequences that only happen to have the same length")
            yield self.at(
                analysis, conflict.event,
                f"{event.op} combines {a} with {b}: {what}",
                hint="bring both operands to one layout first: transpose the (T, B, d) one to (B, T, d), or build the "
                     "attention module with batch_first=True" if crossed else
                     "a residual adds tensors over the same positions, and cross-attention takes its queries "
                     "from the decoder and its keys and values from the encoder: check where each operand comes from",
                related=_operands_built(analysis, event, (conflict.first, conflict.second)),
            )


def _apart(table, apart: set[frozenset], first: int, second: int) -> bool:
    """Whether the model told two sequences apart (attended one to the other), a sequence shifted
    from another (a history one step behind) standing for that other: equal by construction."""
    one, other = (table.shifted_from(axis) or table.base_of(axis) for axis in (first, second))
    if table.same(one, other):
        return False
    return frozenset((table.sequence_of(one), table.sequence_of(other))) in apart


ELEMENTWISE = frozenset({"add", "sub", "mul", "div", "where", "maximum", "minimum", "addcmul", "lerp"})


TRANSPOSES = frozenset({"transpose", "t", "permute", "movedim"})  # names as recorded (swapaxes is transpose)


def _symmetrized(analysis, event) -> bool:
    """Whether `event` combines a value with its own transpose (`a + a.transpose(-1, -2)`)."""
    if len(event.inputs) < 2:
        return False
    first, second = event.inputs[0].vid, event.inputs[1].vid
    for one, other in ((first, second), (second, first)):
        made = analysis.flow.made_by(other)
        if made is not None and made.op in TRANSPOSES and made.inputs and made.inputs[0].vid == one:
            return True
    return False


def _batch_meets_positions(table, first: int, second: int) -> bool:
    kinds = {table.get(first).kind, table.get(second).kind}
    return "batch" in kinds and bool(kinds & {"seq", "pos"})


def _operands_built(analysis, event, axes: tuple[int, int]) -> tuple:
    """Where each of the two operands was made, named by the axis it brought."""
    table, notes = analysis.table, []
    for meta in event.inputs[:2]:
        carried = [axis for axis in axes if any(table.same(axis, own) for own in analysis.axes_of(meta))]
        maker = analysis.flow.made_by(meta.vid)
        if maker is not None and (maker.file, maker.line) == (event.file, event.line):
            continue  # made on the finding's own line: the line shown already
        if len(carried) == 1:  # an operand holding both axes (a transposed one) names neither
            notes += construction(analysis, meta.vid, f"{table.describe(carried[0])} made here", event.index, limit=1)
    return tuple(notes)

