"""mask-value: a mask applied before the softmax must drive the hidden scores to (nearly) -inf."""

from __future__ import annotations

from typing import Iterable

import torch

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
                    yield self.at(analysis, use.event, message[0], hint=message[1])
        yield from self._discarded(analysis)

    def _problem(self, analysis, block, use) -> tuple[str, str] | None:
        fix = "fill with float('-inf') (or torch.finfo(scores.dtype).min) before the softmax"
        if use.kind == "multiply":
            return ("scores are multiplied by a 0/1 mask before the softmax: hidden scores become 0, "
                    "not -inf, so hidden keys keep weight exp(0)", fix)
        if use.fill is None:
            return None
        event = analysis.recording.events[use.event]
        dtype = event.outputs[0].dtype if event.outputs else block.dtype
        limit = _dtype_max(dtype)
        if limit is not None and abs(use.fill) > limit and use.fill != float("-inf"):
            return (f"mask value {use.fill:.4g} overflows {dtype} (largest magnitude {limit:.4g}): it turns into "
                    "-inf and fully hidden rows into NaN", f"use torch.finfo({dtype}).min or float('-inf')")
        if use.fill >= 0:
            return (f"masked scores are filled with {use.fill:g}, which does not hide them: a hidden key "
                    "still gets a large weight", fix)
        lowest = _lowest_score(analysis, event)
        if lowest is not None and use.fill > lowest - MARGIN:
            return (f"mask value {use.fill:g} is too small to matter against scores as low as {lowest:.3g}: "
                    "hidden keys still get weight", fix)
        converted = _overflowed_source(analysis, use, block.dtype)
        if converted is not None:
            return (f"mask value {converted:.4g} overflows {block.dtype} when cast to the scores' dtype: it turns into "
                    "-inf and fully hidden rows into NaN", f"use torch.finfo({block.dtype}).min")
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
    producer = analysis.flow.made_by(event.inputs[0].vid) if event.inputs else None
    if producer is None or not producer.stats or producer.stats[0] is None:
        return None
    return producer.stats[0].minimum


def _overflowed_source(analysis, use, dtype: str) -> float | None:
    """The original value of a mask that was cast into a dtype too narrow for it."""
    limit = _dtype_max(dtype)
    if limit is None or use.mask is None:
        return None
    event = analysis.flow.made_by(use.mask.vid)
    while event is not None and event.op in ("to", "type", "half", "bfloat16"):
        source = event.inputs[0]
        value = analysis.flow.value(source)
        if value is not None and value.is_floating_point():
            finite = value[torch.isfinite(value)]
            if finite.numel() and float(finite.abs().max()) > limit:
                return float(finite[finite.abs().argmax()])
        event = analysis.flow.made_by(source.vid)
    return None
