"""`check`: trace one forward pass and return its report; the CLI and autograders call this."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import torch

from .checks.consequences import folded, unfolded
from .compiled import eager, unwrap
from .findings import Report
from .store import read
from .trace import Trace
from .witness import Snapshot, run_witnesses, take_snapshot
from .witness.runner import named_outputs

if TYPE_CHECKING:
    from torch import nn


def run_check(
    model: nn.Module,
    args: tuple = (),
    kwargs: dict[str, Any] | None = None,
    *,
    layout: str | None = None,
    target: str = "",
    witness: bool = True,
    input_origins: dict[int, tuple[tuple[str, int], ...]] | None = None,
    **trace_options: Any,
) -> tuple[Report, Trace]:
    """Run `model(*args, **kwargs)` once under tracing; a forward that raises becomes a finding.

    A compiled model (`torch.compile`) is traced as its original module, eagerly, with a
    note. `layout` None lets the evidence decide how the inputs are read; `witness` runs the
    model again to prove or refute what the checks found (`tracer.witness`); `input_origins`:
    the user's lines that built each input, by position (`tracer.origins`, read while a target's
    build ran); `trace_options` go to `Trace` (e.g. `value_budget_bytes`).
    """
    notes: list[str] = []
    model = unwrap(model, notes)
    kwargs = kwargs or {}
    with _collector_paused():
        with torch.no_grad(), eager():
            before = take_snapshot(model, args, kwargs) if witness else None
            outputs = None
            try:
                with Trace(model, layout=layout, **trace_options) as recorded:
                    result = model(*args, **kwargs)
                outputs = named_outputs(result) if witness else None
            except Exception:  # reported as a shape-error (or other) finding from the recording
                pass
            _name_origins(recorded.recording, input_origins or {})
            if witness:
                _witness(model, before, recorded, outputs)
        recorded.recording.notes.extend(note for note in notes if note not in recorded.recording.notes)
        return report_of(recorded, target), recorded


def _name_origins(recording, origins: dict[int, tuple[tuple[str, int], ...]]) -> None:
    """Each input's building lines under its name in the recording, before anything reads it."""
    root = next((call for call in recording.module_calls if call.parent is None), None)
    if root is None:
        return
    for position, meta in enumerate(root.inputs):
        source = recording.sources.get(meta.vid)
        if position in origins and source is not None and origins[position]:
            recording.input_origins[source.name] = [list(place) for place in origins[position]]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a check: what a check makes lives until it returns, so each
    collection during it would walk all of it (a full one the whole heap, torch's included) in vain."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _witness(model: nn.Module, before: Snapshot | None, recorded: Trace, outputs: list | None) -> None:
    """The witnesses' findings replace the checks' (confirmed, refuted or new) in the analysis. The
    witnesses judge every finding on its own; a cause they refute no longer explains its symptoms."""
    analysis = recorded.analysis
    analysis.findings = unfolded(analysis.findings)
    outcome = run_witnesses(model, before, analysis, outputs)
    analysis.findings = folded(outcome.findings)
    analysis.notes.extend(outcome.notes)
    analysis.witnesses = outcome.summary


def report_of(recorded: Trace, target: str = "") -> Report:
    """The report of a finished trace: a live one, a loaded file's or a whole script's."""
    notes = list(recorded.recording.notes)
    findings = recorded.findings
    return Report(findings, recorded.summary, target=target, notes=notes + recorded.analysis.notes)


def check(model: nn.Module, *args: Any, **kwargs: Any) -> Report:
    """Trace `model(*args, **kwargs)` once and report its findings; `print(report)` names the
    model by its class (`Attention: 1 error, 0 warnings ...`), its JSON "target" stays ""."""
    report = run_check(model, args, kwargs)[0]
    report.name = type(getattr(model, "_orig_mod", model)).__name__
    return report


def load(path: str | os.PathLike[str], layout: str | None = None) -> Trace:
    """A finished `Trace` of the recording at `path`; `layout` overrides the one it was saved with."""
    recording, saved_layout = read(path)
    return Trace.from_recording(recording, layout or saved_layout)
