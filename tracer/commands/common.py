"""What the subcommands share: the command record, exit statuses, tracing one target, paths."""

from __future__ import annotations

import argparse
import glob
import os
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Callable

import torch

from ..api import report_of, run_check
from ..findings import Report
from ..store import is_recording_path, load
from ..targets import load_target
from ..trace import Trace

# Exit statuses of CONTRACT.md: clean, a finding reached --fail-on, usage or target error.
OK, FAILED, USAGE = 0, 1, 2

LAYOUTS = ("batch-first", "seq-first")


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help, its arguments and what it does (returns the exit status)."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def add_layout_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--layout", choices=LAYOUTS, default=None,
        help="force how to read the model's inputs (default: settled from what the forward pass does with them)",
    )


def error(message: str) -> None:
    """One line on stderr, like argparse's own usage errors."""
    print(f"attnscope: error: {message}", file=sys.stderr, flush=True)


def trace_target(spec: str, *, layout: str | None = None, device: str | None = None) -> tuple[Report, Trace]:
    """Load `spec`, optionally move it to `device`, and trace one forward pass.

    A saved recording (`run.attntrace`) is read instead of run, so `device` does not apply.
    Raises `TargetError` when the target cannot be loaded. Callers wrap this in
    `targets.isolated()` so that each target runs in its own clean state.
    """
    if is_recording_path(spec):
        recorded = load(spec, layout=layout)
        return report_of(recorded, spec), recorded
    workload = load_target(spec)
    if device is not None:
        workload = workload.to(device)
    # Tensors the forward pass creates itself (masks, position tables) follow the inputs.
    with torch.device(device) if device is not None else nullcontext():
        return run_check(
            workload.model, workload.args, workload.kwargs,
            layout=layout or workload.options.get("layout"), target=spec,
        )


def expand_targets(specs: list[str]) -> list[str]:
    """`subs/*.py:build` as one target per matching file, sorted, as an autograder means it.

    The shell cannot expand the pattern itself (no file is named `a.py:build`), so it
    arrives verbatim; a pattern that matches nothing stays as given and fails as a target.
    """
    expanded: list[str] = []
    for spec in specs:
        where, colon, name = spec.rpartition(":")
        matches = sorted(glob.glob(where)) if colon and glob.has_magic(where) else []
        if matches:
            expanded.extend(f"{match}:{name}" for match in matches)
        else:
            expanded.append(spec)
    return expanded


def shown_path(filename: str) -> str:
    """`filename` relative to the current directory when it lies inside it, else as recorded."""
    path, here = os.path.abspath(filename), os.getcwd()
    return os.path.relpath(path, here) if path.startswith(here + os.sep) else filename
