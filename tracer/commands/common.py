"""What the subcommands share: the command record, exit statuses, options, tracing one target.

Nothing heavy is imported here at module level: `attnscope --help` and every usage error
must answer before torch would have finished loading (issue 12), so torch and the tracer's
analysis come in inside the functions that trace.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Callable

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


def positive_size(text: str) -> int:
    """`parse_size`, refusing 0: no bytes at all would fail every target (`--max-memory`) or every value check
    (`--value-budget`), and 0 is no way to say "no limit" (leaving the option out is)."""
    size = parse_size(text)
    if size <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is no memory at all: give a size such as 2G (without the "
                                         "option: its default, for --max-memory no limit)")
    return size


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
    if notes:
        recorded.recording.notes[:0] = [note for note in notes if note not in recorded.recording.notes]
        report = report_of(recorded, spec)
    return report, recorded


# ----------------------------------------------------------------------------- a target's own output
@dataclass
class OwnOutput:
    """What a target printed while it was loaded and traced: plain text (terminal control sequences
    removed), its head and tail kept as `check` keeps them, and how many lines it had in all."""

    text: str = ""
    lines: int = 0


@contextmanager
def own_output_captured() -> Iterator[OwnOutput]:
    """Take everything printed inside, by Python (`print`, warnings) and by C code (file descriptors
    1 and 2), so that a target's own output never mixes with attnscope's; filled in on exit."""
    from ..cohort.outcome import Output
    from ..cohort.plain import plain

    taken = OwnOutput()
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        saved = [os.dup(1), os.dup(2)]
    except OSError:  # no standard output to take over: nothing to keep apart either
        yield taken
        return
    sink = tempfile.TemporaryFile()
    stream: IO[str] = open(os.dup(sink.fileno()), "w", buffering=1, encoding="utf-8", errors="replace")
    python_out, python_err = sys.stdout, sys.stderr
    try:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        sys.stdout = sys.stderr = stream
        yield taken
    finally:
        stream.flush()
        sys.stdout, sys.stderr = python_out, python_err
        for fd, copy in zip((1, 2), saved):
            os.dup2(copy, fd)
            os.close(copy)
        stream.close()
        sink.seek(0)
        output = Output()
        for chunk in iter(lambda: sink.read(1 << 16), b""):
            output.add(chunk)
        sink.close()
        taken.text, taken.lines = plain(output.text()), output.lines


def show_own_output(target: str, taken: OwnOutput, file: IO[str] | None = None) -> None:
    """The target's own output framed under its name (`check`'s text format), on `file` (stdout)."""
    if not taken.text:
        return
    from rich.console import Console

    from ..formats.text import output_lines

    console = Console(file=file or sys.stdout, soft_wrap=True, highlight=False)
    for line in output_lines(target, taken.text, taken.lines):
        console.print(line)


def trace_apart(spec: str, *, output_to: IO[str] | None = None, **options: object) -> tuple[Report, Trace] | None:
    """`trace_target` in its own clean state (`targets.isolated`), the target's own output taken and
    shown framed (on `output_to`, standard output by default) as `check` shows it, never raw.

    A target that cannot be loaded gets its one-line error, then its output framed, on standard
    error, and None is returned (the command exits 2).
    """
    from ..specs import TargetError
    from ..targets import isolated

    failure: TargetError | None = None
    with own_output_captured() as taken:
        try:
            with isolated():
                traced = trace_target(spec, **options)  # type: ignore[arg-type]
        except TargetError as problem:
            failure = problem
    if failure is not None:
        error(str(failure))
        show_own_output(spec, taken, sys.stderr)
        return None
    show_own_output(spec, taken, output_to)
    return traced
