"""What the subcommands share: the command record, exit statuses, options, tracing one target.

Nothing heavy is imported here at module level: `attnscope --help` and every usage error
must answer before torch would have finished loading (issue 12), so torch and the tracer's
analysis come in inside the functions that trace.
"""

from __future__ import annotations

import argparse
import re
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from ..specs import RECORDING_SUFFIX

if TYPE_CHECKING:
    from ..findings import Report
    from ..trace import Trace

# Exit statuses of CONTRACT.md: clean, a finding reached --fail-on, usage or target error.
OK, FAILED, USAGE = 0, 1, 2

LAYOUTS = ("batch-first", "seq-first")
DEVICES = ("cpu", "meta")


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help, its arguments and what it does (returns the exit status).

    A command's module is imported to run it or to show its `--help`: it imports torch and
    other heavy packages inside `run`, never at module level. `start`, if given, is called
    with the raw arguments before they are parsed, to begin slow work early (`check`
    starts its warm parent process, which spends seconds importing torch).
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    start: Callable[[list[str]], None] | None = None


def add_layout_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--layout", choices=LAYOUTS, default=None,
        help="force how to read the model's inputs (default: settled from what the forward pass does with them)",
    )


def add_device_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--device", choices=DEVICES, default=None,
        help="build and trace the target there (default: where the target builds it; meta: the build runs inside "
             "torch.device('meta'), so no weight is allocated: shapes only, no value checks)",
    )


SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b?)\s*$", re.IGNORECASE)


def parse_size(text: str) -> int:
    """`2G`, `512M`, `1.5GiB`, `100000` as a number of bytes (K, M, G, T are powers of 1024)."""
    found = SIZE.match(text)
    if not found:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (expected e.g. 2G, 512M or a number of bytes)")
    number, unit = float(found.group(1)), found.group(2).lower()
    return int(number * 1024 ** " kmgt".index(unit or " "))


def error(message: str) -> None:
    """One line on stderr, like argparse's own usage errors."""
    print(f"attnscope: error: {message}", file=sys.stderr, flush=True)


def note(message: str) -> None:
    """One line on stderr that informs, where `error` would alarm."""
    print(f"attnscope: note: {message}", file=sys.stderr, flush=True)


def is_recording_path(spec: str) -> bool:
    """Whether a command-line target names a saved recording rather than code to run."""
    return spec.endswith(RECORDING_SUFFIX)


def trace_target(
    spec: str, *, layout: str | None = None, device: str | None = None, value_budget: int | None = None,
    witness: bool = True,
) -> tuple[Report, Trace]:
    """Load `spec`, build it on `device` (if given), and trace one forward pass.

    A saved recording (`run.attntrace`) is read instead of run, so `device` does not apply.
    `torch.compile` hands back what it was given while the target builds, as under `run`.
    Raises `TargetError` when the target cannot be loaded. Callers wrap this in
    `targets.isolated()` so that each target runs in its own clean state.
    """
    from ..api import load, report_of, run_check

    if is_recording_path(spec):
        from ..witness import NOT_LIVE

        recorded = load(spec, layout=layout)
        recorded.analysis.notes.append(NOT_LIVE.format(why="a saved recording has no model to run again"))
        return report_of(recorded, spec), recorded
    import torch

    from ..compiled import uncompiled
    from ..targets import load_target

    notes: list[str] = []
    with uncompiled(notes):
        workload = load_target(spec, device=device)
    notes.extend(workload.notes)
    options = {} if value_budget is None else {"value_budget_bytes": value_budget}
    # Tensors the forward pass creates itself (masks, position tables) follow the inputs.
    with torch.device(device) if device is not None else nullcontext():
        report, recorded = run_check(
            workload.model, workload.args, workload.kwargs,
            layout=layout or workload.options.get("layout"), target=spec, witness=witness,
            input_origins=workload.options.get("input_origins"), **options,
        )
    if not notes:
        return report, recorded
    recorded.recording.notes[:0] = [note for note in notes if note not in recorded.recording.notes]
    return report_of(recorded, spec), recorded
