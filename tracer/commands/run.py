"""`attnscope run SCRIPT.py [args...]`: trace a whole script (or a notebook), like `python -m cProfile`.

Students have a `train.py`, not a factory function. The script runs as `__main__` with its
own `sys.argv` and its directory first on `sys.path`, while every top-level module call
is recorded as a forward pass, up to `--max-passes` (later passes run untraced, so a
training loop stays fast). The script keeps its standard output and its exit status; the
report goes to standard error after it (with `--json`, one JSON line on standard output),
also when the script raised: then the original traceback comes first, as Python prints it,
and the `shape-error` finding beneath it explains the failing op. A notebook runs its code
cells in order in one `__main__` namespace, as a kernel's "Run All" would.

`torch.compile` is replaced while the script runs by a function that returns what it was
given, so a compiled model runs, and is traced, as its original module (what
`OptimizedModule._orig_mod` would be); the report notes each call. Tracing the compiled
graph instead would show dynamo's rewritten ops, not the user's lines.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from contextlib import contextmanager
from importlib.metadata import entry_points
from traceback import print_exception
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ..specs import NOTEBOOK_SUFFIX, RECORDING_SUFFIX
from .common import FAILED, OK, USAGE, Command, add_layout_argument, error

if TYPE_CHECKING:
    from ..findings import Report
    from ..trace import Trace

DEFAULT_MAX_PASSES = 3
INTERRUPTED = 130  # what a shell reports for a Python script stopped by Ctrl-C
TRACER_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-passes", type=int, default=DEFAULT_MAX_PASSES, metavar="N",
        help=f"record the first N top-level forward passes, run the rest untraced (default: {DEFAULT_MAX_PASSES})",
    )
    parser.add_argument("--save", metavar="FILE", help="write the recording there (run.attntrace), also after a crash")
    parser.add_argument("--tui", action="store_true", help="open the recording in the terminal UI afterwards")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line on standard output")
    parser.add_argument(
        "--fail-on", choices=("error", "warning"), default=None,
        help="exit 1 when the script succeeded but a finding is at least this severe (default: the script's status)",
    )
    add_layout_argument(parser)
    parser.add_argument("script", metavar="SCRIPT.py",
                        help="the script (or notebook.ipynb, its code cells in order) to run; attnscope's options come before it")
    parser.add_argument("script_args", nargs=argparse.REMAINDER, metavar="ARGS", help="the script's own arguments")


# --------------------------------------------------------------------------- running the script
@contextmanager
def as_main(script: str, argv: list[str]) -> Iterator[None]:
    """`python SCRIPT ARGS...`'s view of the process: its argv, its directory first on the path."""
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(script))
    try:
        yield
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path


def _exit_status(code: Any) -> int:
    """`sys.exit(code)` as the interpreter turns it into a status: None is 0, text is printed and 1."""
    if code is None:
        return OK
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return FAILED


def as_python_shows(traceback: TracebackType | None, script: str) -> TracebackType | None:
    """The traceback `python SCRIPT` would print: from the script's own frame on, without attnscope's frames.

    None when the script never ran (a syntax error), which Python prints without frames too.
    """
    from ..notebook import split_cell

    kept: list[TracebackType] = []
    started = False
    while traceback is not None:
        filename = traceback.tb_frame.f_code.co_filename
        started = started or split_cell(filename)[0] == script  # the script, or one of the notebook's cells
        if started and not filename.startswith(TRACER_ROOT):
            kept.append(traceback)
        traceback = traceback.tb_next
    shown = None
    for entry in reversed(kept):
        shown = TracebackType(shown, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return shown


def show_exception(problem: BaseException, script: str) -> None:
    """Print `problem` as `python SCRIPT` would. Python's own hook reads source lines from the
    files themselves; a notebook cell's lines are only in `linecache`, which `traceback` reads."""
    if script.endswith(NOTEBOOK_SUFFIX) and sys.excepthook is sys.__excepthook__:
        print_exception(problem)
    else:
        sys.excepthook(type(problem), problem, problem.__traceback__)


def script_runner(script: str, notes: list[str]) -> Callable[[], object]:
    """What running `script` as `__main__` is: `runpy` for a Python file, its code cells in
    order for a notebook (read now, so a damaged one is refused before anything runs)."""
    if not script.endswith(NOTEBOOK_SUFFIX):
        path = os.path.abspath(script)
        return lambda: runpy.run_path(path, run_name="__main__")
    from ..notebook import read

    notebook = read(script)
    note = notebook.note()
    if note:
        notes.append(note)
    return lambda: notebook.run({"__name__": "__main__"})


def run_script(
    script: str, argv: list[str], recorded: Trace, runner: Callable[[], object],
) -> tuple[int, BaseException | None]:
    """Run `script` (by `runner`, from `script_runner`) as `__main__` under `recorded`; its exit
    status, and what it raised if it did.

    The trace is closed with no exception: a forward pass that raised was already noted by
    the recorder, and an exception from elsewhere (or `sys.exit`) is not the model's.
    """
    from ..compiled import uncompiled

    recorded.__enter__()
    try:
        with as_main(script, argv), uncompiled(recorded.recording.notes):
            runner()
    except SystemExit as done:
        return _exit_status(done.code), None
    except BaseException as problem:  # the script's own failure: reported as Python would
        sys.stdout.flush()
        problem = problem.with_traceback(as_python_shows(problem.__traceback__, script))
        show_exception(problem, script)
        return (INTERRUPTED if isinstance(problem, KeyboardInterrupt) else FAILED), problem
    finally:
        recorded.__exit__(None, None, None)
    return OK, None


def _run_notes(recorded: Trace, max_passes: int, raised: BaseException | None) -> list[str]:
    from ..recorder import error_text

    recording = recorded.recording
    notes = []
    if recording.forward_passes == 0:
        notes.append("no forward pass of an nn.Module ran")
    elif recorded.untraced_passes:
        later = recorded.untraced_passes
        notes.append(f"recorded the first {max_passes} forward passes (--max-passes); "
                     f"{later} later {'pass' if later == 1 else 'passes'} ran untraced")
    if raised is not None and recording.error != error_text(raised):
        notes.append(f"the script raised {type(raised).__name__} outside the recorded forward passes")
    return notes


# --------------------------------------------------------------------------- after the script
def open_tui(recorded: Trace, label: str) -> None:
    """Hand the recording to a viewer registered under "attnscope.viewers" (the Textual app).

    `tracer` never imports `tui`: the app registers itself through that entry point.
    """
    try:
        viewer = next(iter(entry_points(group="attnscope.viewers"))).load()
    except (StopIteration, ImportError):
        print("attnscope: note: the terminal UI is not available here; use --save and open the file with it",
              file=sys.stderr)
        return
    viewer(recorded, label=label)


def _saved(recorded: Trace, path: str) -> str | None:
    """Write the recording; the note to print, or None when writing failed (already reported)."""
    try:
        recorded.save(path)
    except OSError as problem:
        error(f"cannot write {path}: {problem.strerror or problem}")
        return None
    return f"recording saved to {path}"


def _print(report: Report, as_json: bool) -> None:
    sys.stdout.flush()  # the script's last output stays above the report on a terminal
    if as_json:
        print(report.to_json(), flush=True)
        return
    from rich.console import Console

    from ..formats.text import print_report

    print_report(Console(file=sys.stderr, soft_wrap=True, highlight=False), report)


def save_problem(path: str) -> str | None:
    """Why the recording could not be written to `path`, checked before the script runs."""
    if not path.endswith(RECORDING_SUFFIX):
        return f"--save {path}: name the recording *{RECORDING_SUFFIX}, so that check, render and tui know it"
    if os.path.isdir(path):
        return f"--save {path}: is a directory"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"--save {path}: no such directory {os.path.dirname(path) or folder}"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return f"--save {path}: not writable"
    return None


def script_problem(script: str) -> str | None:
    if os.path.isdir(script):
        return f"can't run {script!r}: it is a directory (expected a Python script, e.g. {os.path.join(script, 'train.py')})"
    if not os.path.isfile(script):
        return f"can't open file {script!r}: no such file"
    return None


def _misplaced_save(options: argparse.Namespace) -> None:
    """`attnscope run train.py --save x.attntrace` gives --save to the script: say so, before it runs."""
    args = options.script_args
    for position, word in enumerate(args):
        value = word.partition("=")[2] if word.startswith("--save=") else (
            args[position + 1] if word == "--save" and position + 1 < len(args) else "")
        if value.endswith(RECORDING_SUFFIX) and not options.save:
            print(f"attnscope: note: {word} comes after the script, so it is the script's own argument; "
                  f"attnscope's options come before the script: attnscope run --save {value} {options.script} ...",
                  file=sys.stderr, flush=True)
            return


def run(options: argparse.Namespace) -> int:
    script = options.script
    refused = script_problem(script) or (save_problem(options.save) if options.save else None)
    if refused:
        error(refused)
        return USAGE
    if options.max_passes < 1:
        error("--max-passes must be at least 1")
        return USAGE
    _misplaced_save(options)
    from ..api import report_of
    from ..trace import Trace

    recorded = Trace(None, max_passes=options.max_passes, layout=options.layout)
    runner = script_runner(script, recorded.recording.notes)
    status, raised = run_script(os.path.abspath(script), [script, *options.script_args], recorded, runner)
    recorded.recording.notes.extend(_run_notes(recorded, options.max_passes, raised))
    saved = _saved(recorded, options.save) if options.save else None
    report = report_of(recorded, script)
    if saved:
        report.notes.append(saved)
    _print(report, options.json)
    if options.tui:
        open_tui(recorded, script)
    if options.save and not saved:  # the script's own failure first, else saving's
        return status if status != OK else USAGE
    if status == OK and options.fail_on and report.fails(options.fail_on):
        return FAILED
    return status


COMMAND = Command("run", "run a Python script with tracing on and report the findings of its forward passes", add_arguments, run)
