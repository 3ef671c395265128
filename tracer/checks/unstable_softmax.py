"""unstable-softmax: exp of raw scores overflows; subtract the row maximum first."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check


class UnstableSoftmax(Check):
    code = "unstable-softmax"
    severity = "warning"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            if block.kind == "handwritten" and not block.max_subtracted and block.exp_event is not None:
                exp = analysis.recording.events[block.exp_event]
                stats = analysis.recording.stats_of(exp.outputs[0].vid)
                happened = f": here it did, on {stats.nonfinite} scores" if stats is not None and stats.nonfinite else ""
                yield self.at(
                    analysis, block.exp_event,
                    "hand-written softmax exponentiates the scores without subtracting the row maximum: "
                    f"large scores overflow to inf and the weights become NaN{happened}",
                    hint="scores = scores - scores.amax(dim=-1, keepdim=True) before exp (or use torch.softmax)",
                )
