"""The alone witness: a sample run by itself, cut to its real positions, gets the outputs it gets in the batch.

The padding witness changes what padded positions hold; it cannot see a model whose outputs
depend on how much padding a sample got (absolute positions counted from the row's start under
left padding) or on where a packed document sits in its row (positions not restarted per
document). The reference is the sample run alone, without its padding (a packed document
without the others): its outputs at those positions, and pooled over them, should be the ones
it gets in the batch. The two runs differ in shapes, so values are compared position by
position through the axes, with a tolerance for the float sums that shorter rows add up in
another order.

Not every difference is a mistake: a convolution's edge reads the padding's place (FastSpeech's
stacked convs), a model trained on left-padded rows of one length counts positions from the
row's start (SASRec). So a difference is reported only where the first op that differs makes
the positions themselves, and under left padding only inside an installed library that numbers
positions from the row's start unless told otherwise (transformers asks for `position_ids`).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

import torch

from ..axes import AxisTable
from ..events import Recording
from .compare import Move
from .facts import Facts
from .localize import Localized
from .regions import Region, coordinates

TOLERANCE = 1e-4  # of the value's own scale: different shapes sum floats in different orders


@dataclass
class Alone:
    """One sample (or packed document) run alone: its inputs, and where its positions sit in the batch."""

    kind: str  # "padding" or "documents": the witness whose harm a difference shows
    sample: int
    positions: torch.Tensor  # its real positions in the batch's row, in order
    replace: dict[int, torch.Tensor]  # every input of the forward, cut to the sample alone
    region: Region  # names the sequence, so the axes place each value's positions
    changed: str


def plan_alone(facts: Facts, inputs: list[torch.Tensor]) -> Alone | str:
    """The sample to run alone (the most padded one, or a packed row's second document), or why none."""
    documents = facts.documents
    if documents is not None:
        position, data = documents.position, facts.data[documents.position]
        chosen = _second_document(documents.ids)
        if chosen is None:
            return "no row packs two documents"
        sample, positions = chosen
        told = {documents.told_position: torch.tensor([0, positions.numel()]) if documents.offsets else None}
        kind, what = "documents", f"document {int(documents.ids[sample, positions[0]])} of row {sample}"
    else:
        found = _most_padded(facts)
        if found is None:
            return "no sample is padded"
        position, data, sample, positions = found
        told, kind, what = {}, "padding", f"sample {sample}"
    tensor = inputs[position]
    size_b = tensor.shape[data.batch] if data.batch is not None else 1
    size_t = tensor.shape[data.seq]
    replace: dict[int, torch.Tensor] = {}
    for index, value in enumerate(inputs):
        if index in told:
            if told[index] is not None:
                replace[index] = told[index]
                continue
        cut = _cut(facts, index, value, size_b, size_t, sample, positions)
        if cut is None:
            return f"{facts.names[index]} has a dim the size of the batch or the sequence that cannot be placed"
        replace[index] = cut
    region = Region(kind, facts.sequence_roots[data.sequence], aligned=facts.aligned_roots(data.sequence))
    first, last = int(positions[0]), int(positions[-1])
    changed = (f"the batch to {what} of {data.name} alone, cut to its {positions.numel()} real positions "
               f"({first}-{last})")
    return Alone(kind, sample, positions, replace, region, changed)


def left_padded(plan: Alone) -> bool:
    """Whether the sample alone was cut from the end of its row: its positions, counted from the row's
    start, moved. A model trained on rows padded so (SASRec) reads them so by design; only a library
    that numbers positions from the row's start by default (and asks for `position_ids` under left
    padding) is known to be wrong there."""
    return plan.kind == "padding" and int(plan.positions[0]) > 0


def _second_document(ids: torch.Tensor) -> tuple[int, torch.Tensor] | None:
    """(row, positions) of the second document of the first row that packs two: it sits after another."""
    for row, documents in enumerate(ids):
        present = documents[documents >= 0].unique_consecutive()
        if present.numel() >= 2:
            return row, (documents == present[1]).nonzero().flatten()
    return None


def _most_padded(facts: Facts):
    """(data position, data, sample, its real positions) of the sample with the most padding, when
    its real positions are one run of at least two."""
    for sequence, (pad, _) in facts.padding.items():
        where = facts.input_of_sequence(sequence)
        if where is None or not bool(pad.any()) or where[1].batch is None or sequence in facts.guessed_padding:
            continue
        sample = int(pad.sum(1).argmax())
        real = (~pad[sample]).nonzero().flatten()
        if real.numel() >= 2 and int(real[-1] - real[0]) + 1 == real.numel():
            return where[0], where[1], sample, real
    return None


def _cut(facts: Facts, index: int, value: torch.Tensor, size_b: int, size_t: int, sample: int,
         positions: torch.Tensor) -> torch.Tensor | None:
    """An input cut to the sample alone: its batch dim to the sample, its positions to the real ones.
    Dims are known for data inputs; a mask or id input (B, ..., T) has its batch first and its
    positions wherever the sequence's length is. None where a dim cannot be placed."""
    data = facts.data[index]
    if data is not None and (data.batch is not None or data.seq is not None):
        cut = value
        if data.seq is not None and value.shape[data.seq] == size_t:
            cut = cut.index_select(data.seq, positions)
        if data.batch is not None and value.shape[data.batch] == size_b:
            cut = cut.narrow(data.batch, sample, 1)
        return cut
    if value.dim() == 0:
        return value
    dims_t = [d for d, size in enumerate(value.shape) if size == size_t]
    batch_first = size_b > 1 and value.shape[0] == size_b
    if any(size == size_b and d != 0 for d, size in enumerate(value.shape)) and size_b > 1 and size_b != size_t:
        return None
    cut = value
    for dim in dims_t:
        if dim == 0 and batch_first and size_b == size_t:
            continue
        cut = cut.index_select(dim, positions)
    return cut.narrow(0, sample, 1) if batch_first else cut


def alone_move(analysis, plan: Alone, batched: list[tuple[str, torch.Tensor]],
               alone: list[tuple[str, torch.Tensor]]) -> tuple[Move | None, str] | None:
    """The largest difference between the batch's outputs for the sample and the outputs of the
    sample alone, with its words; None when no output could be compared."""
    from . import _cell_words

    outputs = analysis.recording.outputs
    judged, best = 0, None
    for position, ((name, value), (_, single)) in enumerate(zip(batched, alone)):
        if position >= len(outputs) or tuple(outputs[position].shape) != tuple(value.shape):
            continue
        meta = outputs[position]
        pair = matched(analysis.table, analysis.axes_of(meta), value, single, plan)
        if pair is None:
            continue
        judged += 1
        move = _difference(*pair)
        if move is not None and (best is None or move[0].by > best[0].by):
            best = (move[0], _cell_words(analysis, meta, move[1], name))
    if not judged:
        return None
    return best if best is not None else (None, "")


def matched(table: AxisTable, axes: tuple[int, ...], batched: torch.Tensor, single: torch.Tensor,
            plan: Alone) -> tuple[torch.Tensor, torch.Tensor, list[torch.Tensor]] | None:
    """The batch's value at the sample's real positions and the lone run's value at the same ones,
    with the batch's index of each kept cell per dim; None where a dim cannot be placed or the
    shapes do not follow."""
    if len(axes) != batched.dim() or batched.dim() != single.dim():
        return None
    kept_batched, kept_single, cells = batched, single, []
    rank = {int(p): r for r, p in enumerate(plan.positions.tolist())}
    for dim, axis in enumerate(axes):
        found = coordinates(table, axis, batched.shape[dim], plan.region)  # another sequence may be padded too
        if found is None:
            return None
        batch = [vec for what, vec in found if what == "batch"]
        places = [vec for what, vec in found if what == "pos"]
        if len(batch) + bool(places) > 1 or len(batch) > 1:
            return None
        if batch:
            if batch[0].numel() != batched.shape[dim] or single.shape[dim] != 1:
                return None
            here, there = torch.tensor([plan.sample]), torch.tensor([0])
        elif places:
            first = places[0]
            if not bool((first == torch.arange(first.numel())).all()):
                return None  # a cut that does not start the row (`x[:, 1:]`, `x[:, -k:]`), or pieces joined:
                # where it starts in the lone run depends on how its bounds were written
            picked = [i for i in range(batched.shape[dim]) if all(int(vec[i]) in rank for vec in places)]
            there_list = [rank[int(first[i])] for i in picked]
            if not picked or max(there_list) >= single.shape[dim]:
                return None
            here, there = torch.tensor(picked), torch.tensor(there_list)
        else:
            if batched.shape[dim] != single.shape[dim]:
                return None
            here = there = torch.arange(batched.shape[dim])
        kept_batched = kept_batched.index_select(dim, here)
        kept_single = kept_single.index_select(dim, there)
        cells.append(here)
    return kept_batched, kept_single, cells


def _difference(batched: torch.Tensor, single: torch.Tensor, cells: list[torch.Tensor]) -> tuple[Move, tuple] | None:
    """The largest difference beyond float noise, and the batch's cell where it is."""
    if not (batched.is_floating_point() or batched.is_complex()):
        change = (batched != single).to(torch.float64)
        tolerance = 0.0
    else:
        first, second = batched.detach().to(torch.float64), single.detach().to(torch.float64)
        same = (first == second) | (torch.isnan(first) & torch.isnan(second))
        change = torch.where(same, torch.zeros((), dtype=torch.float64), (second - first).abs())
        change = torch.nan_to_num(change, nan=float("inf"))
        finite = first[torch.isfinite(first)]
        tolerance = TOLERANCE * (1.0 + (float(finite.abs().max()) if finite.numel() else 0.0))
    if change.numel() == 0 or float(change.max()) <= tolerance:
        return None
    where = torch.unravel_index(change.argmax(), change.shape)
    return Move(float(change.max()), ()), tuple(int(cells[d][int(i)]) for d, i in enumerate(where))


def localize_alone(analysis, base: Recording, single: Recording, plan: Alone) -> Localized | None:
    """The first op whose value for the sample differs from the lone run's. The runs' ops are paired
    by the longest common run of op names: a library may take another path for a row with no
    padding (no mask to build), and the values of paired ops are compared only where their axes
    place them (the lone run is one sample, fewer positions)."""
    table = analysis.table
    for event, other in _paired(base, single):
        for meta, lone in zip(event.outputs, other.outputs):
            before, after = base.values.get(meta.vid), single.values.get(lone.vid)
            if before is None or after is None:
                continue
            pair = matched(table, analysis.axes_of(meta), before, after, plan)
            found = _difference(*pair) if pair is not None else None
            if found is not None:
                return Localized(event.index, found[0], path=[event.index])
    return None


def _paired(base: Recording, single: Recording):
    """(event of the batch's run, event of the lone run) for the ops both ran, in order."""
    first, second = [event.op for event in base.events], [event.op for event in single.events]
    if first == second:
        yield from zip(base.events, single.events)
        return
    matcher = difflib.SequenceMatcher(None, first, second, autojunk=False)
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            yield base.events[block.a + offset], single.events[block.b + offset]
