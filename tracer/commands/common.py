"""What the subcommands share: the command record, exit statuses, tracing one target, paths."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Callable

import torch

from ..api import run_check
from ..findings import Report
from ..targets import load_target
from ..trace import Trace

# Exit statuses of CONTRACT.md: clean, a finding reached --fail-on, usage or target error.
OK, FAILED, USAGE = 0, 1, 2

LAYOUTS = ("batch-first", "seq-first")
META_NOTE = "value checks skipped on the meta device"


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
        help="how to read the model's float inputs (default: the target's own, else batch-first)",
    )


def error(message: str) -> None:
    """One line on stderr, like argparse's own usage errors."""
    print(f"attnscope: error: {message}", file=sys.stderr, flush=True)


def trace_target(spec: str, *, layout: str | None = None, device: str | None = None) -> tuple[Report, Trace]:
    """Load `spec`, optionally move it to `device`, and trace one forward pass.

    Raises `TargetError` when the target cannot be loaded. Callers wrap this in
    `targets.isolated()` so that each target runs in its own clean state.
    """
    workload = load_target(spec)
    if device is not None:
        workload = workload.to(device)
    # Tensors the forward pass creates itself (masks, position tables) follow the inputs.
    with torch.device(device) if device is not None else nullcontext():
        report, recorded = run_check(
            workload.model, workload.args, workload.kwargs,
            layout=layout or workload.options.get("layout", "batch-first"), target=spec,
        )
    if device == "meta" and META_NOTE not in report.notes:
        report.notes.append(META_NOTE)
    return report, recorded


def shown_path(filename: str) -> str:
    """`filename` relative to the current directory when it lies inside it, else as recorded."""
    path, here = os.path.abspath(filename), os.getcwd()
    return os.path.relpath(path, here) if path.startswith(here + os.sep) else filename
