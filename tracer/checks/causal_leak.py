"""causal-leak: a triangular mask must not let a query see a later key."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .causal import causal_masks


class CausalLeak(Check):
    code = "causal-leak"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for use, shape, advice in causal_masks(analysis):
            if shape.leaks:
                ahead = "the next key" if shape.shift == 1 else f"keys up to {shape.shift} positions ahead"
                yield self.at(
                    analysis, use.event,
                    f"the causal mask lets a query position see keys at later positions (the future): query t "
                    f"also reads {ahead}{advice.where}",
                    hint=advice.hint, related=advice.related,
                )
