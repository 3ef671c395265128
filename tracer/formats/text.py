"""`--format text`: findings like a compiler, the target's own output framed under it.

    path:line: severity[code]: message
     42 |     weights = torch.softmax(scores, dim=-2)
        |                     ^~~~~~~
      note: mask built here (in forward): path:37
      note: consequence [nan]: softmax turned an infinite input into NaN ...: path:43
     43 |     weights = torch.softmax(scores, dim=-1)
      hint: ...
    TARGET: output (2 lines):
      | number of parameters: 1.2M
    TARGET: 1 error, 0 warnings (17 ops, 1 attention block)

A single target that could not be checked gets `attnscope: error: ...` on standard error,
with its output framed beneath it there (over several, `check` shows it on standard output:
`tracer.commands.cohort_text`). The output's header counts every line it printed
(`output_lines`), also those the result no longer keeps.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

from rich.console import Console
from rich.text import Text as RichText

from ..findings import Finding, Related, Report, Witness, recorded_file
from ..notebook import source_line

SEVERITY_STYLES = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}
OUTPUT_LINES = 20  # lines of a target's own output shown in text mode (JSON carries more)


def shown_path(filename: str) -> str:
    """`filename` relative to the current directory when it lies inside it, else as recorded."""
    path, here = os.path.abspath(filename), os.getcwd()
    return os.path.relpath(path, here) if path.startswith(here + os.sep) else filename


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def marker(line: str, op: str) -> str:
    """`^~~~` under the op's name in the code part of `line`, or under the whole statement."""
    code = line.split("#", 1)[0].rstrip()
    found = re.search(rf"\b{re.escape(op)}\b", code) if op else None
    start, end = found.span() if found else (len(code) - len(code.lstrip()), len(code))
    return " " * start + "^" + "~" * max(end - start - 1, 0)


def finding_lines(finding: Finding, target: str) -> list[RichText]:
    """`path:line: error[code]: message`, the source line with a marker, notes and the hint."""
    location = f"{shown_path(finding.file)}:{finding.line}" if finding.file else target
    lines = [
        RichText.assemble(
            (location, "bold"), ": ",
            (f"{finding.severity}[{finding.code}]", SEVERITY_STYLES.get(finding.severity, "bold")),
            ": ", finding.message,
        )
    ]
    source = source_line(finding.file, finding.line).rstrip().expandtabs() if finding.file else ""
    if source.strip():
        gutter = str(finding.line)
        lines.append(RichText(f" {gutter} | {source}"))
        lines.append(RichText.assemble(f" {' ' * len(gutter)} | ", (marker(source, finding.op), "bold green")))
    for place in finding.related:
        lines.extend(related_lines(place))
    for consequence in finding.consequences:
        lines.extend(consequence_lines(consequence, finding))
    if finding.witness is not None:
        lines.append(RichText.assemble("  ", ("proof", "bold magenta"), f": {finding.witness.proof}"))
    if finding.hint:
        lines.append(RichText.assemble("  ", ("hint", "bold"), f": {finding.hint}"))
    return lines


def related_lines(place: Related) -> list[RichText]:
    """`note: mask built here` with its location and source line, under the finding."""
    where = f"{shown_path(place.file)}:{place.line}" if place.file else "?"
    function = f" (in {place.function})" if place.function else ""
    lines = [RichText.assemble("  ", ("note", "bold cyan"), f": {place.role}{function}: ", (where, "bold"))]
    source = source_line(place.file, place.line).rstrip().expandtabs() if place.file else ""
    if source.strip():
        lines.append(RichText(f" {place.line} | {source}"))
    return lines


def consequence_lines(consequence: Finding, cause: Finding) -> list[RichText]:
    """`note: consequence [nan]: ...` with its location, and its source line where it is another line."""
    where = f"{shown_path(consequence.file)}:{consequence.line}" if consequence.file else "?"
    lines = [RichText.assemble("  ", ("note", "bold cyan"), f": consequence [{consequence.code}]: "
                               f"{consequence.message}: ", (where, "bold"))]
    elsewhere = (consequence.file, consequence.line) != (cause.file, cause.line)
    source = source_line(consequence.file, consequence.line).rstrip().expandtabs() if consequence.file else ""
    if elsewhere and source.strip():
        lines.append(RichText(f" {consequence.line} | {source}"))
    return lines


def summary_line(report: Report) -> RichText:
    counts = report.counts()
    ops, blocks = report.summary.get("ops", 0), report.summary.get("attention_blocks", 0)
    found = [_plural(counts["error"], "error"), _plural(counts["warning"], "warning")]
    if counts["info"]:
        found.append(f"{counts['info']} info")
    verdict = ", ".join(found) if any(counts.values()) else "no findings"
    not_run = len(report.summary.get("checks_not_run", {}))
    if not_run:  # a value check that could not judge a place is never a silent "no findings"
        verdict += f", {_plural(not_run, 'check')} not run (see the notes)"
    style = "bold red" if counts["error"] else "bold yellow" if counts["warning"] else "bold green"
    return RichText.assemble(
        (report.label, "bold"), ": ", (verdict, style),
        f" ({_plural(ops, 'op')}, {_plural(blocks, 'attention block')})",
    )


def output_lines(target: str, output: str, total: int | None = None) -> list[RichText]:
    """A target's own stdout/stderr, framed and cut, so it is never mistaken for attnscope's.

    `total` is how many lines it printed in all (`output_lines`), where `output` keeps only part.
    """
    lines = output.rstrip("\n").splitlines()
    total = max(total or 0, len(lines))
    shown = lines[:OUTPUT_LINES]
    cut = f", first {len(shown)} shown" if total > len(shown) else ""
    framed = [RichText.assemble((target, "bold"), f": output ({_plural(total, 'line')}{cut}):")]
    framed += [RichText(f"  | {line}") for line in shown]
    if total > len(shown):
        framed.append(RichText(f"  | [... {_plural(total - len(shown), 'more line')}; --format json carries more ...]"))
    return framed


def print_report(console: Console, report: Report, output: str = "", total: int | None = None) -> None:
    for finding in report.findings:
        for line in finding_lines(finding, report.label):
            console.print(line)
        console.print()
    for note in report.notes:
        console.print(RichText(f"{report.label}: note: {note}"))
    if output:
        for line in output_lines(report.label, output, total):
            console.print(line)
    console.print(summary_line(report))


def report_from_dict(data: dict[str, Any]) -> Report:
    """The `Report` a result object was made from (as `Report.to_dict` wrote it)."""
    findings = [finding_from_dict(item) for item in data.get("findings", ())]
    return Report(findings, data.get("summary", {}), target=data["target"], notes=list(data.get("notes", ())))


def finding_from_dict(item: dict[str, Any]) -> Finding:
    """The `Finding` a finding object was made from (as `Finding.to_dict` wrote it), its consequences too."""
    return Finding(
        item["code"], item["severity"], item["message"], recorded_file(item), item.get("line", 0),
        item.get("module", ""), item.get("op", ""), item.get("node", ""), hint=item.get("hint", ""),
        count=item.get("count", 1), related=tuple(Related.from_dict(place) for place in item.get("related", ())),
        witness=Witness(**item["witness"]) if "witness" in item else None,
        consequences=tuple(finding_from_dict(nested) for nested in item.get("consequences", ())),
    )


class Text:
    """Reports on standard output, targets that could not be checked on standard error."""

    def __init__(self) -> None:
        self.out = Console(file=sys.stdout, soft_wrap=True, highlight=False)
        self.err = Console(file=sys.stderr, soft_wrap=True, highlight=False)

    def show(self, result: dict[str, Any]) -> None:
        output = result.get("output", "")
        if "error" in result:
            self.err.print(RichText(f"attnscope: error: {result['error']}"))
            for line in output_lines(result["target"], output, result.get("output_lines")) if output else ():
                self.err.print(line)
            return
        print_report(self.out, report_from_dict(result), output, result.get("output_lines"))

    def finish(self) -> None:
        sys.stdout.flush()
