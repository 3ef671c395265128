"""`check --format text` over several targets: every target's result on standard output.

`attnscope check 'subs/*.py:build' > grades.txt` must keep every submission, so a target
that could not be checked gets its line there too, in target order among the reports:

    subs/dave.py:build: failed (timeout): did not finish within 5 s; killed (--timeout)
    subs/fred.py:build: could not be loaded: importing fred.py raised SyntaxError: ... (line 4)

and the run ends with one tally line, worded as `attnscope report` words it:

    6 submissions: 2 clean, 1 with errors, 1 timeout, 1 exit, 1 could not be loaded

(the JSON `kind` of a submission that could not be loaded stays "target").

(`3 of 5 submissions: ...` when Ctrl-C stopped the run). A single target keeps the plain
text format: a target error is then the command's one-line error on standard error.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from rich.text import Text as RichText

from ..formats.cohort import failed_label, row_of, verdict_counts
from ..formats.text import Text, output_lines


class CohortText:
    """The text presenter for many targets: reports as `Text` prints them, failures beside them."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.text = Text()
        self.verdicts: Counter[str] = Counter()
        self.clean_without_attention = 0

    def show(self, result: dict[str, Any]) -> None:
        row = row_of(result)
        self.verdicts[row.verdict] += 1
        self.clean_without_attention += row.verdict == "clean" and row.no_attention
        if "error" not in result:
            self.text.show(result)
            return
        out = self.text.out
        if row.output:
            for line in output_lines(row.target, row.output, result.get("output_lines")):
                out.print(line)
        failed = (failed_label(row.verdict), "bold red")
        out.print(RichText.assemble((row.target, "bold"), ": ", failed, f": {row.error}"))

    def finish(self) -> None:
        shown = sum(self.verdicts.values())
        count = f"{shown} submissions" if shown == self.total else f"{shown} of {self.total} submissions"
        tally = verdict_counts(self.verdicts, self.clean_without_attention)
        self.text.out.print(RichText(f"{count}: {tally}" if shown else f"{count} checked"))
        sys.stdout.flush()
