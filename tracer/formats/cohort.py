"""The instructor's view of a results file: counts per code, one row per submission, CSV, HTML.

Built from the lines `check --results` wrote (the last line of each target wins, so a
re-checked submission shows its latest result). The HTML page is self-contained: styles
inline, and the diagram of each flagged block (DOT source kept in the results file) laid
out by Graphviz into inline SVG, so the page can be mailed or attached to a grade book.
"""

from __future__ import annotations

import csv
import html
import io
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

SEVERITIES = ("error", "warning", "info")


# How a failure is said to a person. The JSON `kind` stays "target" (CONTRACT.md); a teaching
# assistant reads "could not be loaded" (a syntax error, a build() that raised, no such NAME).
FAILURE_WORDS = {"target": "could not be loaded"}
VERDICT_WORDS = {"errors": "with errors", "warnings": "with warnings only", **FAILURE_WORDS}


def failure_words(kind: str) -> str:
    """A failure's kind in words: `could not be loaded` for "target", the kind itself otherwise."""
    return FAILURE_WORDS.get(kind, kind)


def failed_label(kind: str) -> str:
    """What a text line says before a failed target's error: `could not be loaded`, `failed (timeout)`."""
    return FAILURE_WORDS.get(kind) or f"failed ({kind})"


def verdict_counts(counts: Counter[str], clean_without_attention: int = 0) -> str:
    """`2 clean, 1 with errors, 1 timeout`: how the submissions ended, most frequent first.

    `2 clean (1 with no attention block)`: a clean submission that computed no attention passed
    the attention checks only because they had nothing to check.
    """
    def said(verdict: str, count: int) -> str:
        words = f"{count} {VERDICT_WORDS.get(verdict, verdict)}"
        if verdict == "clean" and clean_without_attention:
            words += f" ({clean_without_attention} with no attention block)"
        return words

    return ", ".join(said(verdict, count) for verdict, count in counts.most_common())


def without_attention(result: dict[str, Any]) -> bool:
    """Whether a checked target's report notes that its forward pass met no attention block."""
    from ..analysis import NO_ATTENTION

    return NO_ATTENTION in result.get("notes", ())


def _malformed(result: dict[str, Any]) -> str | None:
    """What makes a stored line no result of `check` (the fields the report reads), or None."""
    if not isinstance(result.get("target"), str):
        return "its target is not a string"
    if "error" in result:
        return None if isinstance(result["error"], str) else "its error is not a string"
    findings = result.get("findings")
    if not isinstance(findings, list):
        return "it has neither findings nor an error"
    if not all(isinstance(item, dict) and {"code", "severity", "message"} <= item.keys() for item in findings):
        return "a finding lacks its code, severity or message"
    return None


def not_a_cohort(path: str, results: list[dict[str, Any]]) -> str | None:
    """Why the results read from `path` make no report (none at all, or one malformed), or None."""
    if not results:
        return f"{path} holds no results (write them with attnscope check --results {path} ...)"
    for result in results:
        problem = _malformed(result)
        if problem:
            return f"{path}: the result for {result.get('target')!r} is not one of attnscope check: {problem}"
    return None


@dataclass
class Row:
    """One submission: its verdict, its finding counts and codes, or why it could not be checked."""

    target: str
    verdict: str  # "clean", "errors", "warnings", or an error kind ("timeout", "crashed", ...)
    counts: dict[str, int] = field(default_factory=dict)
    codes: list[str] = field(default_factory=list)
    error: str = ""  # without the target's name in front, which the row shows already
    findings: list[dict[str, Any]] = field(default_factory=list)
    diagrams: list[dict[str, Any]] = field(default_factory=list)
    output: str = ""
    no_attention: bool = False  # its forward pass met no attention block (a note says so)


def latest(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One result per target: the last one written (a re-check after a resubmission wins)."""
    by_target: dict[str, dict[str, Any]] = {}
    for result in results:
        by_target[result["target"]] = result  # a key keeps its first place; its value is the last
    return list(by_target.values())


def row_of(result: dict[str, Any]) -> Row:
    if "error" in result:
        error = result["error"].removeprefix(f"{result['target']}: ")
        return Row(result["target"], result.get("kind", "target"), error=error, output=result.get("output", ""))
    findings = list(result.get("findings", ()))
    counts = Counter(finding["severity"] for finding in findings)
    verdict = "errors" if counts["error"] else "warnings" if counts["warning"] else "clean"
    codes = sorted({finding["code"] for finding in findings})
    return Row(result["target"], verdict, {s: counts.get(s, 0) for s in SEVERITIES}, codes, "", findings,
               list(result.get("diagrams", ())), result.get("output", ""), without_attention(result))


@dataclass
class Cohort:
    rows: list[Row]

    @classmethod
    def of(cls, results: list[dict[str, Any]]) -> Cohort:
        return cls(sorted((row_of(result) for result in latest(results)), key=lambda row: row.target))

    def verdicts(self) -> Counter[str]:
        return Counter(row.verdict for row in self.rows)

    @staticmethod
    def remark(row: Row) -> str:
        """The codes / error cell: the codes found, the error, or that no attention block ran."""
        return " ".join(row.codes) or row.error or ("no attention block" if row.no_attention else "")

    def clean_without_attention(self) -> int:
        return sum(row.verdict == "clean" and row.no_attention for row in self.rows)

    def codes(self) -> list[tuple[str, str, int, int]]:
        """(code, severity, submissions with it, occurrences), most frequent first."""
        submissions: Counter[str] = Counter()
        occurrences: Counter[str] = Counter()
        severity: dict[str, str] = {}
        for row in self.rows:
            for code in row.codes:
                submissions[code] += 1
            for finding in row.findings:
                occurrences[finding["code"]] += finding.get("count", 1)
                severity.setdefault(finding["code"], finding["severity"])
        return [(code, severity[code], submissions[code], occurrences[code])
                for code in sorted(submissions, key=lambda c: (-submissions[c], c))]


# --------------------------------------------------------------------------- CSV
CSV_COLUMNS = ("target", "verdict", "errors", "warnings", "info", "codes", "error")


def to_csv(cohort: Cohort) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in cohort.rows:
        writer.writerow([row.target, row.verdict, row.counts.get("error", 0), row.counts.get("warning", 0),
                         row.counts.get("info", 0), " ".join(row.codes), row.error])
    return buffer.getvalue()


# --------------------------------------------------------------------------- HTML
STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222;padding:0 1em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f2f2f2}.errors,.crashed,.timeout,.memory,.exit,.target{color:#b00020;font-weight:600}
.warnings{color:#9a6700;font-weight:600}.clean{color:#1a7f37;font-weight:600}
code,pre{font-family:ui-monospace,monospace;font-size:.9em}pre{background:#f6f8fa;padding:.6em;overflow:auto}
details{margin:1em 0;border-top:1px solid #ddd;padding-top:.5em}summary{cursor:pointer;font-weight:600}
.diagram svg{max-width:100%;height:auto}
"""


def _svg(dot: str) -> str:
    """The DOT source laid out as inline SVG, or a note when Graphviz is not there."""
    import graphviz

    try:
        svg = graphviz.Source(dot).pipe(format="svg").decode()
    except (graphviz.ExecutableNotFound, graphviz.CalledProcessError) as problem:
        return f"<p><em>diagram left out: {html.escape(type(problem).__name__)} (is Graphviz's dot installed?)</em></p>"
    return svg[svg.find("<svg"):]


def _submission(row: Row, anchor: str) -> str:
    parts = [f'<details id="{anchor}"><summary>{html.escape(row.target)} '
             f'<span class="{row.verdict}">{html.escape(failure_words(row.verdict))}</span></summary>']
    if row.error:
        parts.append(f"<p>{html.escape(row.error)}</p>")
    if row.findings:
        parts.append("<ul>")
        for finding in row.findings:
            where = f"{finding.get('file', '')}:{finding.get('line', '')}"
            parts.append(f"<li><code>{html.escape(where)}</code> <strong>{html.escape(finding['severity'])}"
                         f"[{html.escape(finding['code'])}]</strong> {html.escape(finding['message'])}</li>")
        parts.append("</ul>")
    for drawn in row.diagrams:
        label = drawn.get("module") or "(top level)"
        parts.append(f"<p>Block <code>{html.escape(label)}</code>: {html.escape(', '.join(drawn.get('codes', ())))}</p>")
        parts.append(f'<div class="diagram">{_svg(drawn["dot"])}</div>')
    if row.output:
        parts.append(f"<p>Output of the submission:</p><pre>{html.escape(row.output)}</pre>")
    parts.append("</details>")
    return "\n".join(parts)


def to_html(cohort: Cohort, title: str) -> str:
    verdicts = cohort.verdicts()
    outcome_rows = "".join(f'<tr><td class="{v}">{html.escape(VERDICT_WORDS.get(v, v))}</td><td>{n}</td></tr>'
                           for v, n in verdicts.most_common())
    if cohort.clean_without_attention():
        outcome_rows += (f'<tr><td class="warnings">of them clean with no attention block</td>'
                         f'<td>{cohort.clean_without_attention()}</td></tr>')
    code_rows = "".join(f"<tr><td><code>{html.escape(code)}</code></td><td>{severity}</td><td>{subs}</td><td>{occ}</td></tr>"
                        for code, severity, subs, occ in cohort.codes())
    table = []
    details = []
    for number, row in enumerate(cohort.rows):
        anchor = f"s{number}"
        flagged = row.verdict != "clean"
        name = f'<a href="#{anchor}">{html.escape(row.target)}</a>' if flagged else html.escape(row.target)
        table.append(f'<tr><td>{name}</td><td class="{row.verdict}">{html.escape(failure_words(row.verdict))}</td>'
                     f"<td>{row.counts.get('error', 0)}</td><td>{row.counts.get('warning', 0)}</td>"
                     f"<td>{html.escape(cohort.remark(row))}</td></tr>")
        if flagged:
            details.append(_submission(row, anchor))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>{STYLE}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p>{len(cohort.rows)} submissions.</p>
<h2>Outcomes</h2>
<table><tr><th>verdict</th><th>submissions</th></tr>{outcome_rows}</table>
<h2>Findings by code</h2>
<table><tr><th>code</th><th>severity</th><th>submissions</th><th>occurrences</th></tr>{code_rows}</table>
<h2>Submissions</h2>
<table><tr><th>target</th><th>verdict</th><th>errors</th><th>warnings</th><th>codes / error</th></tr>{''.join(table)}</table>
<h2>Flagged submissions</h2>
{''.join(details) or '<p>None.</p>'}
</body></html>
"""
