"""batch-leak (from a statistic): a number reduced over the batch comes back into every sample.

`k.abs().amax()` over a whole `(B, H, T, d)` tensor (one int8 scale per tensor), a mean taken
over the batch and subtracted again: one sample's data sets a number that every other sample is
then scaled, shifted or bounded by, so each output depends on the rest of the batch. A batch
witness sees this only when its change moves that number (a maximum held by the changed
sample), so the reduction itself is the evidence. Left alone: integer and boolean counts (the
longest length of a batch sizes a buffer), a table of samples against samples (contrastive
logits compare samples by design), and a model recorded in training mode (batch statistics
are what a hand-written BatchNorm trains on).
"""

from __future__ import annotations

from typing import Iterator

from ..blocks import LAYOUT_OPS

REDUCTIONS = ("sum", "mean", "amax", "amin", "max", "min", "var", "std", "var_mean", "std_mean", "logsumexp", "norm")
# Ops that turn the statistic into the factor or offset it becomes (`clamp(min=eps) / 127`, `rsqrt`,
# a guard `where(isinf(s), 1, s)`).
ON_THE_NUMBER = LAYOUT_OPS | {"abs", "clamp", "clamp_min", "clamp_max", "sqrt", "rsqrt", "reciprocal", "pow", "neg",
                              "exp", "log", "add", "sub", "mul", "div", "where", "nan_to_num", "maximum", "minimum"}
# Ops where the number meets the samples' own values, cell by cell.
MEETS = frozenset({"mul", "div", "add", "sub", "rsub", "where", "maximum", "minimum", "clamp", "masked_fill"})
STEPS = 6


def batch_statistics(analysis) -> Iterator[tuple[int, str, str]]:
    """(event, message, hint) of every reduction over the batch whose result meets the samples again."""
    recording, table = analysis.recording, analysis.table
    root = next((call for call in recording.module_calls if call.parent is None), None)
    if root is not None and root.training:
        return
    for event in recording.ops(*REDUCTIONS):
        if not event.inputs or not event.outputs or "float" not in event.inputs[0].dtype:
            continue
        axes = analysis.axes_of(event.inputs[0])
        reduced = analysis.facts[event.index].normalized if event.index in analysis.facts else ()
        batch = [d for d in reduced if d < len(axes) and table.holds_batch(axes[d]) and event.inputs[0].shape[d] > 1]
        if not batch or _compares_samples(analysis, axes, event.inputs[0].shape[batch[0]]):
            continue
        meeting = _meets_samples(analysis, event.outputs[0].vid)
        if meeting is None:
            continue
        where = recording.events[meeting]
        yield (event.index,
               f"this {event.op} reduces over the batch ({table.describe(axes[batch[0]])} of "
               f"[{analysis.describe(event.inputs[0])}]) and the {where.op} at line {where.line} applies the result "
               "to every sample: each sample's outputs depend on the other samples' values",
               "reduce over each sample's own dims only: leave the batch dim out of `dim` (x.amax(dim=(1, 2, 3), "
               "keepdim=True) for one number per sample, dim=-1 for one per row)")


def _compares_samples(analysis, axes: tuple[int, ...], size: int) -> bool:
    """A table of samples against samples ((B, B) logits): besides the batch, a dim of the batch's size
    that is samples too, or of no known meaning."""
    table = analysis.table
    return sum(1 for axis in axes if table.get(axis).size == size and table.get(axis).kind in ("batch", "unknown")) > 1


def _meets_samples(analysis, vid: int) -> int | None:
    """The first op, a few steps on, where the reduced number meets a value that still holds samples
    (more than one), or None."""
    flow = analysis.flow
    todo = [(vid, 0)]
    while todo:
        current, steps = todo.pop()
        for user, position in flow.users(current):
            if not user.outputs:
                continue
            others = [meta for slot, meta in enumerate(user.inputs) if slot != position]
            if user.op in MEETS and any(_has_samples(analysis, meta) for meta in others) and \
                    _has_samples(analysis, user.outputs[0]):
                return user.index
            if user.op in ON_THE_NUMBER and steps < STEPS and not _has_samples(analysis, user.outputs[0]):
                todo.append((user.outputs[0].vid, steps + 1))
    return None


def _has_samples(analysis, meta) -> bool:
    return any(analysis.table.holds_batch(axis) and size > 1
               for axis, size in zip(analysis.axes_of(meta), meta.shape))
