"""causal-diagonal: a causal mask must leave each query its own position."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .causal import causal_masks


class CausalDiagonal(Check):
    code = "causal-diagonal"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for use, shape, advice in causal_masks(analysis):
            if shape.hides_diagonal:
                yield self.at(
                    analysis, use.event,
                    f"the causal mask hides the diagonal: query t cannot see key t (its own position){advice.where}",
                    hint=advice.hint, related=advice.related,
                )
