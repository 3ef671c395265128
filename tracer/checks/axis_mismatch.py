"""axis-mismatch: two different sequences (or the query and key copies of one) combined as if aligned."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check


class AxisMismatch(Check):
    code = "axis-mismatch"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        table = analysis.table
        for conflict in table.conflicts:
            if conflict.reason not in ("sequences", "roles"):
                continue
            event = analysis.recording.events[conflict.event]
            a, b = table.describe(conflict.first), table.describe(conflict.second)
            what = ("the query and key positions of one score table" if conflict.reason == "roles"
                    else "two different sequences that only happen to have the same length")
            yield self.at(
                analysis, conflict.event,
                f"{event.op} combines {a} with {b}: {what}",
                hint="check which tensor should be the queries and which the keys/values "
                     "(cross-attention: decoder states are the queries, encoder outputs the keys and values)",
            )
