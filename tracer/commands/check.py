"""`attnscope check TARGET...`: findings like a compiler, or one JSON object per target.

Several targets (an autograder's folder of submissions) are checked one after the other,
each in its own clean state; one that cannot be loaded is reported and the rest still run.
"""

from __future__ import annotations

import argparse
import json
import linecache
import re
import sys
from contextlib import contextmanager
from typing import Iterator

from rich.console import Console
from rich.text import Text

from ..findings import Finding, Related, Report
from ..targets import TargetError, isolated
from .common import (
    FAILED, OK, USAGE, Command, add_layout_argument, error, expand_targets, shown_path, trace_target,
)

SEVERITY_STYLES = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "targets", nargs="+", metavar="TARGET",
        help="path/to/file.py:NAME (the path may be a pattern: 'subs/*.py:build'), dotted.module:NAME, zoo:NAME or run.attntrace",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per target, one per line")
    parser.add_argument(
        "--device", choices=("cpu", "meta"), default=None,
        help="move the model and its inputs there before tracing (default: where the target built them; meta: shapes only, no value checks)",
    )
    parser.add_argument(
        "--fail-on", choices=("error", "warning"), default="error",
        help="exit 1 when a finding is at least this severe (default: error)",
    )
    parser.add_argument(
        "--exit-zero", action="store_true",
        help="exit 0 even when findings reach --fail-on (for demos and reports); target errors still exit 2",
    )
    add_layout_argument(parser)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def marker(line: str, op: str) -> str:
    """`^~~~` under the op's name in the code part of `line`, or under the whole statement."""
    code = line.split("#", 1)[0].rstrip()
    found = re.search(rf"\b{re.escape(op)}\b", code) if op else None
    start, end = found.span() if found else (len(code) - len(code.lstrip()), len(code))
    return " " * start + "^" + "~" * max(end - start - 1, 0)


def finding_lines(finding: Finding, target: str) -> list[Text]:
    """`path:line: error[code]: message`, the source line with a marker, and the hint."""
    location = f"{shown_path(finding.file)}:{finding.line}" if finding.file else target
    lines = [
        Text.assemble(
            (location, "bold"), ": ",
            (f"{finding.severity}[{finding.code}]", SEVERITY_STYLES.get(finding.severity, "bold")),
            ": ", finding.message,
        )
    ]
    source = ""
    if finding.file:
        linecache.checkcache(finding.file)  # the file may have been edited since it was cached
        source = linecache.getline(finding.file, finding.line).rstrip().expandtabs()
    if source.strip():
        gutter = str(finding.line)
        lines.append(Text(f" {gutter} | {source}"))
        lines.append(Text.assemble(f" {' ' * len(gutter)} | ", (marker(source, finding.op), "bold green")))
    for place in finding.related:
        lines.extend(related_lines(place))
    if finding.hint:
        lines.append(Text.assemble("  ", ("hint", "bold"), f": {finding.hint}"))
    return lines


def related_lines(place: Related) -> list[Text]:
    """`note: mask built here` with its location and source line, under the finding."""
    where = f"{shown_path(place.file)}:{place.line}" if place.file else "?"
    function = f" (in {place.function})" if place.function else ""
    lines = [Text.assemble("  ", ("note", "bold cyan"), f": {place.role}{function}: ", (where, "bold"))]
    linecache.checkcache(place.file)
    source = linecache.getline(place.file, place.line).rstrip().expandtabs() if place.file else ""
    if source.strip():
        lines.append(Text(f" {place.line} | {source}"))
    return lines


def summary_line(report: Report) -> Text:
    counts = report.counts()
    ops, blocks = report.summary.get("ops", 0), report.summary.get("attention_blocks", 0)
    found = [_plural(counts["error"], "error"), _plural(counts["warning"], "warning")]
    if counts["info"]:
        found.append(f"{counts['info']} info")
    verdict = ", ".join(found) if any(counts.values()) else "no findings"
    style = "bold red" if counts["error"] else "bold yellow" if counts["warning"] else "bold green"
    return Text.assemble(
        (report.target, "bold"), ": ", (verdict, style),
        f" ({_plural(ops, 'op')}, {_plural(blocks, 'attention block')})",
    )


def print_report(console: Console, report: Report) -> None:
    for finding in report.findings:
        for line in finding_lines(finding, report.target):
            console.print(line)
        console.print()
    for note in report.notes:
        console.print(Text(f"{report.target}: note: {note}"))
    console.print(summary_line(report))


@contextmanager
def progress(index: int, total: int, target: str) -> Iterator[None]:
    """A spinner on a terminal, one `[i/n] target` line on a redirected stderr with several targets."""
    label = f"[{index}/{total}] {target}"
    if sys.stderr.isatty():
        with Console(stderr=True).status(Text(label)):
            yield
        return
    if total > 1:
        print(label, file=sys.stderr, flush=True)
    yield


def _checked(spec: str, options: argparse.Namespace) -> Report:
    with isolated():
        return trace_target(spec, layout=options.layout, device=options.device)[0]


def run(options: argparse.Namespace) -> int:
    console = Console(file=sys.stdout, soft_wrap=True, highlight=False)
    status = OK
    targets = expand_targets(options.targets)
    for index, spec in enumerate(targets, 1):
        try:
            with progress(index, len(targets), spec):
                report = _checked(spec, options)
        except TargetError as problem:
            error(str(problem))
            if options.json:
                print(json.dumps({"target": spec, "error": str(problem)}), flush=True)
            status = USAGE
            continue
        if options.json:
            print(report.to_json(), flush=True)
        else:
            print_report(console, report)
        if report.fails(options.fail_on) and not options.exit_zero:
            status = max(status, FAILED)
    return status


COMMAND = Command("check", "trace one forward pass per target and report its findings", add_arguments, run)
