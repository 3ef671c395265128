"""`check`: trace one forward pass and return its report; the CLI and autograders call this."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from .findings import Report
from .trace import Trace


def run_check(
    model: nn.Module,
    args: tuple = (),
    kwargs: dict[str, Any] | None = None,
    *,
    layout: str | None = None,
    target: str = "",
) -> tuple[Report, Trace]:
    """Run `model(*args, **kwargs)` once under tracing; a forward that raises becomes a finding."""
    with torch.no_grad():
        try:
            with Trace(model, layout=layout) as recorded:
                model(*args, **(kwargs or {}))
        except Exception:  # reported as a shape-error (or other) finding from the recording
            pass
    return report_of(recorded, target), recorded


def report_of(recorded: Trace, target: str = "") -> Report:
    """The report of a finished trace: a live one, a loaded file's or a whole script's."""
    notes = list(recorded.recording.notes)
    findings = recorded.findings
    return Report(findings, recorded.summary, target=target, notes=notes + recorded.analysis.notes)


def check(model: nn.Module, *args: Any, **kwargs: Any) -> Report:
    """Trace `model(*args, **kwargs)` once and report its findings."""
    return run_check(model, args, kwargs)[0]
