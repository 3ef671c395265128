"""mask-value: a mask applied before the softmax must drive the hidden scores to (nearly) -inf."""

from __future__ import annotations

import math
from typing import Iterable

import torch

from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check

MARGIN = 20.0  # a hidden score this far below every real score gets weight < e^-20


class MaskValue(Check):
    code = "mask-value"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            for use in block.masks:
                if use.after:
                    continue
                message = self._problem(analysis, block, use)
                if message:
                    built = use.mask is not None and use.kind in ("additive", "multiply")  # the mask is the bug
                    yield self.at(analysis, use.event, message[0], hint=message[1],
                                  related=construction(analysis, use.mask.vid, "mask built here", use.event) if built else ())
        yield from self._discarded(analysis)

    def _problem(self, analysis, block, use) -> tuple[str, str] | None:
        fix = "fill with float('-inf') (or torch.finfo(scores.dtype).min) before the softmax"
        if use.kind == "multiply":
            return ("scores are multiplied by a 0/1 mask before the softmax: hidden scores become 0, "
                    "not -inf, so hidden keys keep weight exp(0)", fix)
        if use.fill is None:
            return None
        if math.isnan(use.fill):
            return ("the additive mask holds NaN (0 × -inf?): every score it touches becomes NaN", fix)
        event = analysis.recording.events[use.event]
        dtype = event.outputs[0].dtype if event.outputs else block.dtype
        limit = _dtype_max(dtype)
        if limit is not None and abs(use.fill) > limit and use.fill != float("-inf"):
            return (f"mask value {use.fill:.4g} overflows {dtype} (largest magnitude {limit:.4g}): it turns into "
                    "-inf and fully hidden rows into NaN", f"use torch.finfo({dtype}).min or float('-inf')")
        converted = _overflowed_source(analysis, use, block.dtype)
        if converted is not None:
            return (f"mask value {converted:.4g} does not fit the scores' dtype {block.dtype} (largest magnitude "
                    f"{_dtype_max(block.dtype):.4g}): it overflows to -inf, and 0 × -inf or an all -inf row gives "
                    "NaN", f"use torch.finfo({block.dtype}).min (of the scores' dtype, not float32's)")
        if use.fill >= 0 and use.kind == "additive":
            return (f"a 0/1 mask is added to the scores as it is: hidden keys get +{use.fill:g}, not -inf",
                    "an additive mask is 0 at kept keys and -inf (or torch.finfo(dtype).min) at hidden ones: build it "
                    "from the boolean mask with masked_fill, or hand SDPA the boolean mask itself (True = attend)")
        if use.fill >= 0:
            return (f"masked scores are filled with {use.fill:g}, which does not hide them: a hidden key "
                    "still gets a large weight", fix)
        lowest = _lowest_score(analysis, event)
        if lowest is not None and use.fill > lowest - MARGIN:
            return (f"mask value {use.fill:g} is not negative enough to hide keys from scores as low as "
                    f"{lowest:.3g}: hidden keys still get weight", fix)
        return None

    def _discarded(self, analysis) -> Iterable[Finding]:
        """A masked_fill whose result is never used leaves the scores unmasked."""
        flow = analysis.flow
        scored = {block.scores.vid for block in analysis.blocks if block.scores is not None}
        for event in analysis.recording.ops("masked_fill"):
            if event.inplace or not event.outputs or flow.users(event.outputs[0].vid):
                continue
            if _reaches(flow, event.inputs[0].vid, scored):
                yield self.at(
                    analysis, event.index,
                    "the result of masked_fill is thrown away: masked_fill returns a new tensor, so the scores "
                    "reach the softmax unmasked",
                    hint="assign it (scores = scores.masked_fill(...)) or use masked_fill_",
                )


def _reaches(flow, vid: int, targets: set[int], depth: int = 6) -> bool:
    if vid in targets:
        return True
    if depth == 0:
        return False
    return any(_reaches(flow, out.vid, targets, depth - 1) for user, _ in flow.users(vid) for out in user.outputs)


def _dtype_max(dtype: str) -> float | None:
    if dtype in ("float16", "bfloat16"):
        return torch.finfo(getattr(torch, dtype)).max
    return None


def _lowest_score(analysis, event) -> float | None:
    stats = analysis.recording.stats_of(event.inputs[0].vid) if event.inputs else None
    return None if stats is None else stats.minimum


def _overflowed_source(analysis, use, dtype: str) -> float | None:
    """A number too large for the scores' dtype somewhere in the making of the mask."""
    limit = _dtype_max(dtype)
    if limit is None or use.mask is None:
        return None
    frontier, seen = [use.mask.vid], set()
    while frontier and len(seen) < 12:
        event = analysis.flow.made_by(frontier.pop())
        if event is None or event.index in seen:
            continue
        seen.add(event.index)
        narrow = bool(event.outputs) and _dtype_max(event.outputs[0].dtype) is not None
        for value in list(event.args) + list(event.kwargs.values()):
            if narrow and isinstance(value, float) and math.isfinite(value) and abs(value) > limit:
                return value
        if narrow and event.op in ("to", "type", "half", "bfloat16"):
            kept = analysis.flow.value(event.inputs[0])
            if kept is not None and kept.is_floating_point():
                finite = kept[torch.isfinite(kept)]
                if finite.numel() and float(finite.abs().max()) > limit:
                    return float(finite[finite.abs().argmax()])
        frontier += [meta.vid for meta in event.inputs]
    return None
