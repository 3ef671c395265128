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
    from ..formats.cohort import Cohort

SUFFIXES = (".html", ".csv")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", metavar="FILE.jsonl", help="a results file written by `attnscope check --results`")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="write report.html (self-contained page with diagrams) or report.csv instead of tables")


def print_tables(cohort: Cohort) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..formats.cohort import verdict_counts

    # Not a terminal: wide enough that a cell never wraps in a log or a file.
    console = Console(file=sys.stdout, highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 200)
    console.print(f"{len(cohort.rows)} submissions: {verdict_counts(cohort.verdicts())}", markup=False)
    codes = Table("code", "severity", "submissions", "occurrences", title="Findings by code", title_justify="left")
    for code, severity, submissions, occurrences in cohort.codes():
        codes.add_row(code, severity, str(submissions), str(occurrences))
    console.print(codes)
    rows = Table("target", "verdict", "errors", "warnings", "codes / error", title="Submissions", title_justify="left")
    for row in cohort.rows:
        rows.add_row(row.target, row.verdict, str(row.counts.get("error", 0)), str(row.counts.get("warning", 0)),
                     " ".join(row.codes) or row.error)
    console.print(rows)


def run(options: argparse.Namespace) -> int:
    from ..cohort.results import ResultsError, read_results
    from ..formats.cohort import Cohort, to_csv, to_html

    if not os.path.isfile(options.results):
        error(f"no such results file {options.results} (write one with attnscope check --results FILE.jsonl ...)")
        return USAGE
    if options.output and not options.output.endswith(SUFFIXES):
        error(f"-o {options.output}: the report is written as .html or .csv")
        return USAGE
    try:
        cohort = Cohort.of(read_results(options.results))
    except ResultsError as problem:
        error(str(problem))
        return USAGE
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
