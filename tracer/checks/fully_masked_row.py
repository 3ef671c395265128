"""fully-masked-row: a real query whose every key is hidden has nothing to normalize (NaN or garbage).

Padded queries are excused: their rows are often fully hidden on purpose (pair masks), as is a
row of a pair grid hidden whole (every query of it: the row itself is padding). What
is padding comes from evidence (pad ids, mask inputs), or, in self-attention, from the keys
each sample hides from all its queries at the end of its sequence. Rows whose NaN weights
never reach a model output (the model drops them: a pooling slot for a missing item) did
no harm and are not reported.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

import torch

from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check
from ..evidence.masks import KEY, batch_dims_of, hidden_union, masks_before, padded_queries, pattern_of, rest_holds_positions
from .row_reach import rows_reach_output


class FullyMaskedRow(Check):
    code = "fully-masked-row"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            patterns = [(use, pattern_of(analysis, block, use)) for use in masks_before(block)]
            patterns = [(use, p) for use, p in patterns if p is not None]
            if not patterns:
                continue
            hidden = hidden_union([pattern for _, pattern in patterns])
            if hidden is None:
                continue
            last_use, pattern = patterns[-1]
            union = replace(pattern, hidden=hidden)
            rows = hidden.all(dim=KEY) & ~padded_queries(analysis, union)  # (batch, rest, T_q)
            if rest_holds_positions(analysis.table, pattern):  # a grid row hidden whole is a padded row
                rows = rows & ~hidden.all(dim=KEY).all(dim=-1, keepdim=True)
            if pattern.placement is not None and pattern.placement.query is not None:
                size_q = pattern.placement.sizes[pattern.placement.query]  # a mask broadcast over the queries
                rows = rows.expand(*rows.shape[:-1], size_q)
            if bool(rows.any()) and not _dropped_unharmed(analysis, block) and \
                    not _rows_dropped(analysis, block, pattern, rows) and not _rows_zeroed_after(analysis, block, rows):
                related = tuple(note for use, _ in patterns if use.mask is not None
                                for note in construction(analysis, use.mask.vid, "mask built here", last_use.event))
                single = pattern.placement is not None and pattern.placement.query is None
                events = analysis.recording.events
                masks = {(events[use.event].file, events[use.event].line) for use, _ in patterns}
                yield self._finding(analysis, last_use.event, rows, pattern.has_batch,
                                    excused=bool(padded_queries(analysis, union).any()), related=related[:3],
                                    single=single, came_from=masks | {(note.file, note.line) for note in related})

    def _finding(self, analysis, event: int, rows, has_batch: bool, excused: bool, related: tuple = (),
                 single: bool = False, came_from: Iterable[tuple[str, int]] = ()) -> Finding:
        empty = rows.any(dim=1)  # (batch, T_q)
        queries = sorted({int(q) for q in empty.nonzero()[:, 1]})
        samples = sorted({int(b) for b in empty.nonzero()[:, 0]})
        if not has_batch:
            where = ""
        elif empty.shape[0] == 1 or len(samples) == empty.shape[0]:
            where = " of every sample"
        else:
            where = f" of sample{'s' if len(samples) > 1 else ''} {_listed(samples)}"
        who = (f"the query{where}" if single else
               f"quer{'y' if len(queries) == 1 else 'ies'} at position{'s' if len(queries) > 1 else ''} "
               f"{_listed(queries)}{where}")
        return self.at(
            analysis, event,
            f"{who} see{'s' if single or len(queries) == 1 else ''} no key at all"
            + (", although not padding" if excused else "")
            + ": the softmax of such a row is NaN (or uniform over hidden keys)",
            hint="make sure every valid query keeps at least one visible key (e.g. itself)",
            related=related, came_from=came_from,
        )


def _dropped_unharmed(analysis, block) -> bool:
    """The empty rows' weights are NaN, yet every model output is finite: the model drops or replaces
    those rows later (a pooling slot for a missing item), so they did no harm."""
    recording = analysis.recording
    weights = block.weights if block.weights is not None else recording.events[block.norm_event].outputs[0]
    stats = recording.stats_of(weights.vid)
    if stats is None or not stats.nan:
        return False
    outputs = [recording.stats_of(meta.vid) for meta in recording.outputs]
    return bool(outputs) and all(out is not None and out.nonfinite == 0 for out in outputs)


def _rows_zeroed_after(analysis, block, rows) -> bool:
    """The empty rows' weights are all set to 0 after the softmax (Flamingo's text before any image):
    whatever the softmax gave them, they carry nothing on."""
    for use in block.masks:
        if not use.after:
            continue
        after = pattern_of(analysis, block, use)
        if after is None:
            continue
        try:
            zeroed, empty = torch.broadcast_tensors(after.hidden.all(dim=KEY), rows)
        except RuntimeError:
            continue
        if not bool((empty & ~zeroed).any()):
            return True
    return False


def _rows_dropped(analysis, block, pattern, rows) -> bool:
    """The empty rows of the block's output are all seen dropped before any model output (a fused
    kernel's row of zeros for a pooling slot the model discards with a boolean index)."""
    if block.contraction_event is None or pattern.placement is None or pattern.placement.query_axis is None:
        return False
    output = analysis.recording.events[block.contraction_event].outputs[0]
    axes, table = analysis.axes_of(output), analysis.table
    query = [d for d, axis in enumerate(axes) if table.same(axis, pattern.placement.query_axis)]
    batch = batch_dims_of(table, axes, [d for d in range(len(axes)) if d not in query])  # as the pattern placed it
    empty = rows.any(dim=1)  # (batch, T_q)
    if len(query) != 1 or len(batch) > 1 or (empty.shape[0] > 1 and not batch):
        return False
    shape = [1] * len(axes)
    shape[query[0]] = empty.shape[1]
    if batch:
        shape[batch[0]] = empty.shape[0]
        marked = empty if batch[0] < query[0] else empty.t()  # in the output's order of the two dims
    else:
        marked = empty.any(dim=0)
    try:
        mark = marked.reshape(shape).expand(tuple(output.shape))
    except RuntimeError:
        return False
    return not rows_reach_output(analysis.recording, analysis.flow, output.vid, mark)


def _listed(numbers: list[int], limit: int = 6) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    return shown + (f" and {len(numbers) - limit} more" if len(numbers) > limit else "")
