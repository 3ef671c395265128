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
                    f"also reads {ahead}{advice.where}" + (
                        " (the window reaches as far ahead as behind, and the model predicts its own tokens at every "
                        "position: a language model, which must not read ahead)" if shape.symmetric else ""),
                    hint="a causal window keeps keys i - w < j <= i: (j <= i) & (j > i - w), not |i - j| < w"
                    if shape.symmetric else advice.hint, related=advice.related,
                )
