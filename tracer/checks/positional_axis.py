"""positional-axis: a position table must vary along the sequence axis."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check


class PositionalAxis(Check):
    code = "positional-axis"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        table = analysis.table
        for conflict in analysis.table.conflicts:
            if conflict.reason != "positional":
                continue
            first, second = table.get(conflict.first), table.get(conflict.second)
            position, other = (conflict.first, conflict.second) if first.kind == "pos" else (conflict.second, conflict.first)
            yield self.at(
                analysis, conflict.event,
                f"a position-dependent table varies along {table.describe(other)} ({table.get(other).kind} axis) "
                f"instead of the sequence axis: its positions {table.describe(position)} line up with "
                f"the {table.get(other).kind}",
                hint="index the table by sequence position: for batch-first x, table[:x.size(1)] shaped (T, d), "
                     "broadcast as (1, T, d)",
            )
