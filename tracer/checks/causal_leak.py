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
        for use, shape in causal_masks(analysis):
            if shape.leaks:
                yield self.at(
                    analysis, use.event,
                    "the causal mask lets a query position see keys at later positions (the future)",
                    hint="hide keys j > i: mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)",
                )
