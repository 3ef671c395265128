"""Progress over many targets on standard error: a bar on a terminal, `[i/n]` lines otherwise.

Lines are printed as targets finish (in any order), so a log shows what is done; a single
target shows nothing when standard error is not a terminal, as before.
"""

from __future__ import annotations

import sys
from typing import Any


def verdict(result: dict[str, Any]) -> str:
    """A few words on a result: its error kind, or its finding counts."""
    if "error" in result:
        from ..formats.cohort import failure_words

        return failure_words(result.get("kind", "error"))
    counts = result.get("summary", {}).get("findings", {})
    errors, warnings = counts.get("error", 0), counts.get("warning", 0)
    if not errors and not warnings:
        return "no findings"
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


class Progress:
    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.bar: Any = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

            self.bar = Bar(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                           TextColumn("{task.description}"), console=Console(stderr=True), transient=True)
            self.task = self.bar.add_task("", total=total)
            self.bar.start()

    def advance(self, target: str, result: dict[str, Any], reused: bool = False) -> None:
        self.done += 1
        note = " (from the results file)" if reused else ""
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=target)
        elif self.total > 1:
            print(f"[{self.done}/{self.total}] {target}: {verdict(result)}{note}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Take the bar off the terminal (once; later calls do nothing)."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
