"""Helpers for the TUI tests: zoo models traced once per session, as `attnscope tui` traces them.

Source files are highlighted before an app starts, so a snapshot never catches the plain
text the highlighting worker replaces a moment later.
"""

from __future__ import annotations

from pathlib import Path

from tracer.commands.common import trace_target
from tracer.targets import isolated
from tracer.trace import Trace
from tui.widgets.source_view import highlight_file

ROOT = Path(__file__).resolve().parents[2]
SIZE = (120, 40)
_TRACES: dict[str, Trace] = {}


def traced(spec: str) -> Trace:
    """`zoo:NAME` traced as `attnscope tui` traces it, analysed, cached for the session."""
    if spec not in _TRACES:
        with isolated():
            _, trace = trace_target(spec)
        trace.analysis
        for event in trace.recording.events:
            if event.file:
                highlight_file(event.file)
        _TRACES[spec] = trace
    return _TRACES[spec]
