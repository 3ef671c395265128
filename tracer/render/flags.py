"""Which ops carry findings, and how a finding reads on a small red box.

Which ops carry them is `tracer.graph.findings_by_event`: one merged finding is spread back
onto every layer that has it, the same marks as the graph's `findings` attribute.
"""

from __future__ import annotations

import re
import textwrap

from ..findings import Finding

FLAG_WIDTH = 36  # characters per line of a flag's message
MAX_LINES = 3


def _axis_names(match: re.Match[str]) -> str:
    """`[B=2 × T=6 × d=16]` as `[B × T × d]`: the sizes are on the edges already."""
    return "[" + " × ".join(part.split("=")[0].strip() for part in match.group(1).split("×")) + "]"


def short_message(finding: Finding) -> str:
    """The finding's first clause with shapes as axis names only: what fits on a node."""
    text = re.sub(r"\[([^\]]*×[^\]]*)\]", _axis_names, finding.message)
    text = re.sub(r"\s*\(\d+ occurrences\)\s*$", "", text)
    return text.split(";")[0].strip()


def flag_lines(finding: Finding, width: int = FLAG_WIDTH) -> list[str]:
    """`error[softmax-axis]` and up to three wrapped lines of its short message."""
    head = f"{finding.severity}[{finding.code}]"
    wrapped = textwrap.wrap(short_message(finding), width)
    if len(wrapped) > MAX_LINES:
        wrapped = wrapped[:MAX_LINES]
        wrapped[-1] = textwrap.shorten(wrapped[-1] + " …", width, placeholder=" …")
        if not wrapped[-1].endswith("…"):
            wrapped[-1] += " …"
    return [head, *wrapped]


def tooltip(finding: Finding) -> str:
    """The whole finding, for SVG hover text."""
    text = f"{finding.severity}[{finding.code}]: {finding.message}"
    return f"{text}\nhint: {finding.hint}" if finding.hint else text


def hidden_summary(findings: list[Finding]) -> list[str]:
    """The red line of a collapsed module: how many findings it hides, and their codes."""
    codes = sorted({f.code for f in findings})
    count = len(findings)
    noun = "finding" if count == 1 else "findings"
    return [f"{count} {noun} inside", ", ".join(codes)]
