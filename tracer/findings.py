"""Findings and reports: what the checks say, in the shape CONTRACT.md promises."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from .notebook import cell_filename, location

SEVERITIES = ("error", "warning", "info")


def recorded_file(data: dict[str, Any]) -> str:
    """The file name a place was recorded under: a notebook cell's own (see `tracer.notebook`)."""
    return cell_filename(data["file"], data["cell"]) if data.get("cell") else data.get("file", "")


@dataclass(frozen=True)
class Related:
    """A user-code location that produced a finding's faulty operand, like rustc's secondary notes.

    `role` says what happened there, in words: "mask built here", "buffer registered here".
    """

    file: str
    line: int
    function: str
    role: str

    def to_dict(self) -> dict[str, Any]:
        return {**location(self.file, self.line), "function": self.function, "role": self.role}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Related:
        """The location `to_dict` wrote, a notebook cell's included."""
        return cls(recorded_file(data), data.get("line", 0), data.get("function", ""), data.get("role", ""))


@dataclass(frozen=True)
class Witness:
    """The proof of a finding by running the model again: what was changed, what moved, by how much.

    `kind` is "batch", "padding", "causal" or "repeat" (CONTRACT.md). `by` 0.0: nothing moved
    (a rule finding the witness refuted)."""

    kind: str
    changed: str
    moved: str
    by: float
    # the events of the recording whose protected values moved, in order, the first where the change got
    # in (the divergence path the TUI and `render --witness` show); not part of the JSON
    path: tuple[int, ...] = field(default=(), compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "changed": self.changed, "moved": self.moved, "by": self.by}

    @property
    def proof(self) -> str:
        """`changing token 5 of ids moved the logits at position 4 by 0.11`."""
        if self.kind == "repeat":
            return f"a second eval-mode pass on the same inputs moved {self.moved} by {self.by:.3g}"
        if self.by == 0.0:
            return f"changing {self.changed} moved {self.moved}"
        return f"changing {self.changed} moved {self.moved} by {self.by:.3g}"


@dataclass(frozen=True)
class Finding:
    """One problem at one user source line. `count` is how many ops (e.g. layers) share it."""

    code: str
    severity: str
    message: str
    file: str
    line: int
    module: str
    op: str
    node: str
    hint: str = ""
    count: int = 1
    event: int | None = None  # index into the recording's events, for the TUI and renderer
    related: tuple[Related, ...] = ()  # where the faulty operand was built, most direct first
    witness: Witness | None = None  # the run of the model that proves it (or shows its harm absent)
    consequences: tuple[Finding, ...] = ()  # what this mistake caused, reported under it and not counted
    # a symptom's (a NaN's, an empty row's) lines its defect came from, which a cause may stand on; not in the JSON
    came_from: frozenset[tuple[str, int]] = field(default=frozenset(), compare=False)

    @property
    def places(self) -> frozenset[tuple[str, int]]:
        """Its own line and the lines its notes point at: where a symptom's defect may have come from."""
        return frozenset({(self.file, self.line), *((place.file, place.line) for place in self.related)})

    def to_dict(self) -> dict[str, Any]:
        data = {
            "code": self.code, "severity": self.severity, "message": self.message,
            **location(self.file, self.line), "module": self.module, "op": self.op,
            "node": self.node,
        }
        if self.hint:
            data["hint"] = self.hint
        if self.count > 1:
            data["count"] = self.count
        if self.related:
            data["related"] = [place.to_dict() for place in self.related]
        if self.witness is not None:
            data["witness"] = self.witness.to_dict()
        if self.consequences:
            data["consequences"] = [consequence.to_dict() for consequence in self.consequences]
        return data


def merge_repeats(findings: list[Finding], module_types: dict[str, str]) -> list[Finding]:
    """One finding per (code, source line, module type), counting the layers it stands for."""
    merged: dict[tuple, Finding] = {}
    counts: Counter[tuple] = Counter()
    for finding in findings:
        key = (finding.code, finding.file, finding.line, module_types.get(finding.module, finding.module))
        counts[key] += finding.count
        merged.setdefault(key, finding)
    result = []
    for key, finding in merged.items():
        count = counts[key]
        if count > 1:
            finding = replace(finding, count=count, message=f"{finding.message} ({count} occurrences)")
        result.append(finding)
    order = {severity: rank for rank, severity in enumerate(SEVERITIES)}
    return sorted(result, key=lambda f: (order[f.severity], f.event if f.event is not None else -1))


@dataclass
class Report:
    """The result of checking one target: findings plus the run's summary figures."""

    findings: list[Finding]
    summary: dict[str, Any]
    target: str = ""
    notes: list[str] = field(default_factory=list)
    # what the text output calls a report checked without a target (`tracer.check(model, x)`): the
    # model's class name; not in the JSON, whose "target" stays as given
    name: str = field(default="", compare=False, repr=False)

    @property
    def label(self) -> str:
        """The name in front of the text output's notes and summary: the target, else `name`, else `(model)`."""
        return self.target or self.name or "(model)"

    def counts(self) -> dict[str, int]:
        tally = Counter(f.severity for f in self.findings)
        return {severity: tally.get(severity, 0) for severity in SEVERITIES}

    def to_dict(self) -> dict[str, Any]:
        summary = dict(self.summary)
        summary["findings"] = self.counts()
        data = {"target": self.target, "findings": [f.to_dict() for f in self.findings], "summary": summary}
        if self.notes:
            data["notes"] = list(self.notes)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def __str__(self) -> str:
        """The report as `attnscope check` prints it, without colour, so that `print(report)`
        in a notebook or a test shows the findings rather than a dataclass."""
        import io

        from rich.console import Console

        from .formats.text import print_report

        buffer = io.StringIO()
        print_report(Console(file=buffer, color_system=None, soft_wrap=True, highlight=False), self)
        return buffer.getvalue().rstrip("\n")

    def fails(self, threshold: str = "error") -> bool:
        """True when a finding is at least as severe as `threshold`."""
        limit = SEVERITIES.index(threshold)
        return any(SEVERITIES.index(f.severity) <= limit for f in self.findings)
