"""Document ids: which positions of a packed row belong together, read from an input's values.

Packing (pre-training rows, NaViT's images) lays several documents end to end in one row and
numbers them with an id per position. An integer input reads as document ids when its ids
rise run by run along each row (each id one run; a negative id is padding), with runs longer
than single positions (ids that change at every position are positions), and when the
forward compares it with a table of ids over another axis (`ids[:, :, None] == ids[:, None, :]`,
`slots[:, None] != ids[None, :]`). An id only embedded (BERT's `token_type_ids`) or compared
with one value (`modality == 0`) tells no documents apart.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    from ..dataflow import Dataflow

COMPARISONS = frozenset({"eq", "ne"})
LOOKUPS = frozenset({"searchsorted", "bucketize"})  # offsets turned into a document per position
USE_DEPTH = 6  # ops followed from an input to the comparison that reads it


def reads_as_document_ids(flow: "Dataflow", vid: int, value: torch.Tensor | None) -> bool:
    """Whether an input holds document ids: two documents in some row, compared as a table."""
    ids = document_ids(value) if value is not None and value.dim() in (1, 2) else None
    return ids is not None and any(int(row[row >= 0].unique().numel()) >= 2 for row in ids) and \
        compared(flow, vid, outer=True)


def document_ids(value: torch.Tensor | None) -> torch.Tensor | None:
    """(B, T) ids rising run by run (negative ones, and a run of 0 after the last document, as -1:
    padding), with fewer runs than positions, or None
    (also for a value not kept: the meta device, a recording over budget)."""
    if value is None or value.device.type == "meta":
        return None
    ids = value.reshape(1, -1) if value.dim() == 1 else value
    if ids.dim() != 2 or ids.shape[1] < 2 or ids.is_floating_point() or ids.dtype == torch.bool:
        return None
    ids = torch.where(ids.long() >= 0, ids.long(), -1)
    starts = torch.ones_like(ids, dtype=torch.bool)
    starts[:, 1:] = ids[:, 1:] != ids[:, :-1]
    runs_in_all = 0
    for row, first in zip(ids, starts):
        runs = row[first]
        if runs.numel() > 1 and int(runs[-1]) == 0 and bool((runs[:-1] > 0).all()):  # packing's segment 0 after the last
            row[int(first.nonzero()[-1]):] = -1  # document: padding (in place, on this copy of the ids)
            runs = row[first]
        documents = runs[runs >= 0]
        if bool((documents[1:] <= documents[:-1]).any()):
            return None  # an id in two places, or falling: labels, buckets, not documents
        runs_in_all += runs.numel()
    return ids if runs_in_all < ids.numel() else None


def compared(flow: "Dataflow", vid: int, outer: bool) -> bool:
    """Whether the forward compares an input (or what it computes from it): `outer`, with a table
    over another axis (the comparison's result is larger than both operands), else in any way
    (offsets looked up with `searchsorted` count)."""
    frontier, seen = [vid], {vid}
    for _ in range(USE_DEPTH):
        following = []
        for current in frontier:
            for event, _ in flow.users(current):
                if (event.op in COMPARISONS and (not outer or _outer(event))) or (not outer and event.op in LOOKUPS):
                    return True
                following.extend(meta.vid for meta in event.outputs if meta.vid not in seen)
        seen.update(following)
        frontier = following
    return False


def _outer(event) -> bool:
    """A comparison of two tables whose result is larger than either: ids against ids (or slots)."""
    if len(event.inputs) < 2 or not event.outputs:
        return False
    size = math.prod(event.outputs[0].shape)
    return all(1 < math.prod(meta.shape) < size for meta in event.inputs[:2])
