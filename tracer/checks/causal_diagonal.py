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
        for use, shape in causal_masks(analysis):
            if shape.hides_diagonal and not shape.leaks:
                yield self.at(
                    analysis, use.event,
                    "the causal mask hides the diagonal: query t cannot see key t (its own position)",
                    hint="hide only keys j > i: torch.triu(ones, diagonal=1), not diagonal=0",
                )
