"""Localize by difference: the first op whose output moved in the protected region.

Both runs are recorded with every value kept and compared op by op. Data flows forward, so
the first op whose output moved where the witness protects it, while everything before it
held still there, is where the change got in. Values the axes cannot place (undetermined)
are skipped, and the ops that made them are followed back from that first op: when the
change passed through an attention block on the way, the block (its mask, its softmax) is
where it got in, whatever came after.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from ..blocks import LAYOUT_OPS
from ..events import Recording

MASKING = frozenset({"where", "masked_fill", "mul"})  # ops that hide positions with a mask
VIEW_DEPTH = 4  # views and casts looked through
from .compare import Move, changed_anywhere, moved
from .regions import Region, positions_of, protected_cells


@dataclass
class Localized:
    event: int  # the first op whose protected region moved (index into the analysed recording)
    move: Move
    through: list[int] = field(default_factory=list)  # undetermined ops the change passed before it
    path: list[int] = field(default_factory=list)  # every op whose protected region moved, in order
    mask_event: int | None = None  # the mask that should have hidden what a pooling op read
    hides_real: bool = False  # ... and which hides the real positions and keeps the padded ones instead


def aligned(first: Recording, second: Recording) -> bool:
    """Whether two recordings ran the same ops on values of the same shapes (so vids and axes agree)."""
    if len(first.events) != len(second.events):
        return False
    return all(a.op == b.op and [m.shape for m in a.outputs] == [m.shape for m in b.outputs]
               and [m.vid for m in a.outputs] == [m.vid for m in b.outputs]
               for a, b in zip(first.events, second.events))


def localize(analysis, base: Recording, changed: Recording, region: Region) -> Localized | None:
    """The first op of `analysis`'s recording (aligned with both runs) where the change got in.

    Values over another sequence than the witnessed one are first left undetermined (it may be
    this one, written into a cache); when that leaves nothing to blame, they are read as the
    outputs are, wholly protected (a decoder's positions over a padded encoder)."""
    return _first_moved(analysis, base, changed, region, False) or _first_moved(analysis, base, changed, region, True)


def _first_moved(analysis, base: Recording, changed: Recording, region: Region, other_protected: bool) -> Localized | None:
    table = analysis.table
    undetermined: dict[int, int] = {}  # vid -> its producer, for values that moved but cannot be placed
    found: Localized | None = None
    for event in base.events:
        for meta in event.outputs:
            before, after = base.values.get(meta.vid), changed.values.get(meta.vid)
            if before is None or after is None:
                continue
            cells = protected_cells(table, analysis.axes_of(meta), meta.shape, region, output=other_protected)
            if cells is None:
                if _changed_where_it_may_matter(table, analysis.axes_of(meta), meta, region, before, after):
                    undetermined[meta.vid] = event.index
                continue
            move = moved(before, after, cells)
            if move is None:
                continue
            if found is None:
                found = Localized(event.index, move, _through(base, event.index, undetermined))
                _pooled_from(analysis, base, found, region)
            found.path.append(event.index)
            break
    return found


def _changed_where_it_may_matter(table, axes, meta, region: Region, before, after) -> bool:
    """An undetermined value changed somewhere its placed dims protect (every cell, when none can be
    placed): a change only at padded query rows or later positions is no leak, whatever the rest."""
    if not changed_anywhere(before, after):
        return False
    loose = protected_cells(table, axes, meta.shape, region, loose=True)
    if loose is None or before.shape != after.shape or before.is_complex():
        return True
    return bool(((before != after) & ~(torch.isnan(before) & torch.isnan(after)) & loose).any())


def judged_inside(analysis, base: Recording, region: Region) -> bool:
    """Whether some value of the run has cells the region protects (so a clean comparison says something)."""
    table = analysis.table
    for event in base.events:
        for meta in event.outputs:
            cells = protected_cells(table, analysis.axes_of(meta), meta.shape, region)
            if cells is not None and bool(cells.any()):
                return True
    return False


def _pooled_from(analysis, base: Recording, found: Localized, region: Region) -> None:
    """When the op pools the padded sequence away, the padding should have been hidden from what it
    read: a mask applied right before (`where`, `masked_fill`, a product with a mask, through views
    only) is where it was not, and its values say whether it hid the real positions instead."""
    if region.kind != "padding":
        return
    table, event = analysis.table, base.events[found.event]
    if any(_has_positions(table, analysis.axes_of(meta), region) for meta in event.outputs):
        return
    for meta in event.inputs:
        producer = _through_views(analysis, meta.vid)
        if producer is not None and producer.op in MASKING and any(from_mask(analysis, m.vid) for m in producer.inputs):
            found.mask_event = producer.index
            found.hides_real = _hides_real(analysis, base, producer, region)
            return


def _through_views(analysis, vid: int):
    """The op that made `vid`, looking through views, transposes and casts."""
    producer = analysis.flow.made_by(vid)
    for _ in range(VIEW_DEPTH):
        if producer is None or producer.op not in LAYOUT_OPS or not producer.inputs:
            return producer
        producer = analysis.flow.made_by(producer.inputs[0].vid)
    return producer


def from_mask(analysis, vid: int) -> bool:
    """A boolean or integer value (a mask, as given or compared), seen through views and casts."""
    for _ in range(VIEW_DEPTH):
        meta = analysis.flow.made_by(vid)
        source = analysis.recording.sources.get(vid)
        dtype = source.meta.dtype if source is not None else next(
            (m.dtype for m in meta.outputs if m.vid == vid), "float") if meta is not None else "float"
        if not dtype.startswith(("float", "bfloat", "complex")):
            return True
        if meta is None or meta.op not in LAYOUT_OPS or not meta.inputs:
            return False
        vid = meta.inputs[0].vid
    return False


def _has_positions(table, axes: tuple[int, ...], region: Region) -> bool:
    """Whether a value still has positions of the witnessed sequence (as they are, or a chunk of them)."""
    return region.sequence is not None and any(
        table.get(axis).kind in ("seq", "pos") and (found := positions_of(table, axis, region)) is not None
        and bool((found >= 0).any()) for axis in axes)


def _hides_real(analysis, base: Recording, event, region: Region) -> bool:
    """Whether a mask op's output holds one fill value at every real position and other values at padding."""
    meta = event.outputs[0] if event.outputs else None
    value = base.values.get(meta.vid) if meta is not None else None
    cells = protected_cells(analysis.table, analysis.axes_of(meta), meta.shape, region) if value is not None else None
    if cells is None:
        return False
    real = cells.expand(value.shape)
    shown, hidden = value[real], value[~real]
    return shown.numel() > 0 and hidden.numel() > 0 and bool((shown == shown.flatten()[0]).all()) \
        and not bool((hidden == shown.flatten()[0]).all())


def _through(recording: Recording, index: int, undetermined: dict[int, int]) -> list[int]:
    """The ops behind `index` that made undetermined, moved values, nearest first."""
    seen: list[int] = []
    todo = [meta.vid for meta in recording.events[index].inputs]
    while todo:
        vid = todo.pop(0)
        producer = undetermined.get(vid)
        if producer is None or producer in seen:
            continue
        seen.append(producer)
        todo.extend(meta.vid for meta in recording.events[producer].inputs)
    return seen
