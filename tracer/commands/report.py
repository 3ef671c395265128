"""`attnscope report FILE.jsonl [-o report.html|report.csv]`: the cohort view of a results file.

Without `-o`, two tables on standard output: how many submissions have each finding code,
and one row per submission. `-o report.csv` writes one row per submission; `-o
report.html` a self-contained page with the same tables and, for each flagged submission,
its findings and the diagrams of its flagged blocks.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from .common import OK, USAGE, Command, error

if TYPE_CHECKING:
    from rich.table import Table

    from ..formats.cohort import Cohort

SUFFIXES = (".html", ".csv")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", metavar="FILE.jsonl", help="a results file written by `attnscope check --results`")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="write report.html (self-contained page with diagrams) or report.csv instead of tables")


def table_width() -> int | None:
    """`COLUMNS` where it is set (a pipe, a CI log of known width), the terminal's own on a
    terminal (None), else wide enough that a cell rarely wraps in a log or a file."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return None if sys.stdout.isatty() else 200


def _table(title: str, *columns: str) -> Table:
    """A table whose cells fold rather than cut: a long path or error stays whole."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    for column in columns:
        table.add_column(column, overflow="fold")
    return table


def print_tables(cohort: Cohort) -> None:
    """The two tables; every cell is plain text (a student's `[/]` or `[enforce fail ...]` is
    no Rich markup), so it is shown as written, never read as a style."""
    from rich.console import Console
    from rich.text import Text

    from ..formats.cohort import failure_words, verdict_counts

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True, width=table_width())
    tally = verdict_counts(cohort.verdicts(), cohort.clean_without_attention())
    console.print(f"{len(cohort.rows)} submissions: {tally}", markup=False)
    codes = _table("Findings by code", "code", "severity", "submissions", "occurrences")
    for code, severity, submissions, occurrences in cohort.codes():
        codes.add_row(*map(Text, (code, severity, str(submissions), str(occurrences))))
    console.print(codes)
    rows = _table("Submissions", "target", "verdict", "errors", "warnings", "codes / error")
    for row in cohort.rows:
        cells = (row.target, failure_words(row.verdict), str(row.counts.get("error", 0)), str(row.counts.get("warning", 0)),
                 cohort.remark(row))
        rows.add_row(*map(Text, cells))
    console.print(rows)


def run(options: argparse.Namespace) -> int:
    from ..cohort.results import ResultsError, read_results
    from ..formats.cohort import Cohort, not_a_cohort, to_csv, to_html

    if not os.path.isfile(options.results):
        error(f"no such results file {options.results} (write one with attnscope check --results FILE.jsonl ...)")
        return USAGE
    if options.output and not options.output.endswith(SUFFIXES):
        error(f"-o {options.output}: the report is written as .html or .csv")
        return USAGE
    try:
        results = read_results(options.results)
    except ResultsError as problem:
        error(str(problem))
        return USAGE
    refused = not_a_cohort(options.results, results)
    if refused:
        error(refused)
        return USAGE
    cohort = Cohort.of(results)
    if not options.output:
        print_tables(cohort)
        return OK
    title = f"attnscope report: {os.path.basename(options.results)}"
    text = to_csv(cohort) if options.output.endswith(".csv") else to_html(cohort, title)
    try:
        with open(options.output, "w", encoding="utf-8") as written:
            written.write(text)
    except OSError as problem:
        error(f"cannot write {options.output}: {problem.strerror or problem}")
        return USAGE
    print(f"wrote {options.output} ({len(cohort.rows)} submissions)")
    return OK


COMMAND = Command("report", "summarize a results file of `check --results`: counts per code, one row per submission",
                  add_arguments, run)
