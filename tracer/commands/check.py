"""`attnscope check TARGET...`: findings like a compiler, or one object per target in a chosen format.

Every target is checked in its own child process of a warm parent (`tracer.cohort`):
student code is untrusted, so a target that hangs, crashes, exits, allocates past
`--max-memory` or prints costs only its own result. `--jobs N` children run at once,
here or on a Dask cluster (`--scheduler`); results come out in target order whatever
order they finish in, each target once however often it was named. `--results FILE.jsonl`
keeps each result as it ends and skips those already there (same content and options),
so an interrupted run resumes. Ctrl-C shows every result finished so far, then stops.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Generator, Iterator

from ..formats import FORMATS
from ..specs import expand, problem
from .common import (
    FAILED, OK, USAGE, Command, add_device_argument, add_layout_argument, error, note, parse_size, positive_size,
)

INTERRUPTED = 130


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of jobs (1 or more)")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..cohort.jobs import DEFAULT_TIMEOUT

    parser.add_argument(
        "targets", nargs="+", metavar="TARGET",
        help="path/to/file.py:NAME (the path may be a pattern: 'subs/*.py:build'), notebook.ipynb[:NAME], "
             "dotted.module:NAME, zoo:NAME or run.attntrace",
    )
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (compiler style, default), json (one object per target per line), "
                             "sarif (one SARIF 2.1.0 log) or github (Actions workflow commands)")
    parser.add_argument("--json", dest="format", action="store_const", const="json", help="the same as --format json")
    add_device_argument(parser)
    parser.add_argument(
        "--fail-on", choices=("error", "warning"), default="error",
        help="exit 1 when a finding is at least this severe (default: error)",
    )
    parser.add_argument(
        "--exit-zero", action="store_true",
        help="exit 0 even when findings reach --fail-on (for demos and reports); target errors still exit 2",
    )
    add_layout_argument(parser)
    parser.add_argument("--witness", choices=("on", "off"), default="on",
                        help="run the model again under controlled changes (another sample, the padding, later "
                             "tokens, a second pass) to prove each error or catch what no rule knows (default: on)")
    parser.add_argument("--value-budget", type=positive_size, metavar="SIZE", default=None,
                        help="memory for the value copies the value checks read (e.g. 256M; default 64M): "
                             "raise it when the report says a check was limited by the budget")
    batch = parser.add_argument_group("many targets (each runs in its own child process)")
    batch.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                       help=f"check N targets at once (default: the number of cores, {cores()} here)")
    batch.add_argument("--timeout", type=_positive, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                       help=f"kill a target still running after this long (default: {DEFAULT_TIMEOUT:g})")
    batch.add_argument("--max-memory", type=positive_size, default=None, metavar="SIZE",
                       help="memory one target may allocate beyond attnscope's own (e.g. 2G; default: no limit)")
    batch.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="run the targets on a Dask distributed cluster (tcp://host:8786), or 'local' for a "
                            "LocalCluster here; needs attnscope[dask]")
    batch.add_argument("--results", metavar="FILE.jsonl", default=None,
                       help="append each target's result to FILE and skip targets already in it (same file "
                            "content and options), so an interrupted run resumes; `attnscope report FILE` sums it up")
    batch.add_argument("--recheck", choices=("failed",), default=None,
                       help="with --results: check again the targets whose recorded result is a failure "
                            "(timeout, crash, memory, exit, target error)")


def _settings(options: argparse.Namespace, parallel: int) -> dict[str, Any]:
    return {
        "device": options.device, "layout": options.layout, "value_budget": options.value_budget,
        "witness": options.witness == "on",
        "timeout": options.timeout, "max_memory": options.max_memory,
        "threads": max(1, cores() // parallel), "diagrams": bool(options.results),
    }


Finished = Generator[tuple[Any, dict[str, Any]], None, None]


def _known(jobs: list, stored: Any) -> tuple[list[tuple[Any, dict[str, Any], bool]], list]:
    """(job, result, reused) for the targets refused before they run and those the results
    file already holds; and the jobs left to run."""
    known, fresh = [], []
    for job in jobs:
        refused = problem(job.target)
        reused = stored.stored(job) if stored else None
        if refused:
            known.append((job, {"target": job.target, "error": refused, "kind": "target"}, False))
        elif reused is not None:
            known.append((job, reused, True))
        else:
            fresh.append(job)
    return known, fresh


def _finished(fresh: list, options: argparse.Namespace, parallel: int) -> Finished:
    """(job, result) as the children finish, here or on Dask (which on Ctrl-C hand over what
    has finished before they stop: see `drained`)."""
    if not fresh:
        return
    if options.scheduler:
        from ..cohort.dask import run_dask

        yield from run_dask(fresh, options.scheduler, parallel)
    else:
        from ..cohort.local import run_local

        yield from run_local(fresh, parallel)


def drained(finished: Finished) -> Iterator[tuple[Any, dict[str, Any]]]:
    """After Ctrl-C: the results `finished` already holds, before it stops.

    The Ctrl-C is passed into it (unless it arose there and it has already stopped), and it
    hands over its finished results, then ends by raising it again.
    """
    try:
        item = finished.throw(KeyboardInterrupt())
        while True:
            yield item
            item = next(finished)
    except (KeyboardInterrupt, StopIteration):
        return


def run(options: argparse.Namespace) -> int:
    from ..cohort.jobs import distinct, make_jobs
    from ..cohort.progress import Progress
    from ..cohort.results import ResultsError, ResultsFile, printed
    from ..formats import presenter
    from .cohort_text import CohortText

    if options.recheck and not options.results:
        error(f"--recheck {options.recheck} needs --results FILE.jsonl: the file that records the failures")
        return USAGE
    given = expand(options.targets)
    targets = distinct(given)
    if len(targets) < len(given):
        left_out = len(given) - len(targets)
        note(f"{left_out} target{'s' * (left_out != 1)} named more than once (the same file and NAME) "
             "checked once")
    parallel = max(1, min(options.jobs or cores(), len(targets)))  # fewer targets than cores: more threads each
    try:
        stored = ResultsFile(options.results, recheck_failed=options.recheck == "failed") if options.results else None
    except ResultsError as problem_:
        error(str(problem_))
        return USAGE
    jobs = make_jobs(targets, **_settings(options, parallel))
    show = CohortText(len(jobs)) if options.format == "text" and len(jobs) > 1 else presenter(options.format)
    progress = Progress(len(jobs))
    waiting: dict[int, dict[str, Any]] = {}
    shown = 0
    status = OK

    def deliver(job: Any, result: dict[str, Any], reused: bool) -> None:
        """Keep one finished result, record it, and show every result now due in target order."""
        nonlocal shown, status
        waiting[job.index] = printed(result)
        if stored is not None and not reused:
            stored.append(job, result)
        progress.advance(job.target, result, reused)
        while shown in waiting:  # in target order, whatever order they finished in
            status = max(status, _shown(show, waiting.pop(shown), options))
            shown += 1

    known, fresh = _known(jobs, stored)
    finished = _finished(fresh, options, parallel)
    try:
        try:
            for job, result, reused in known:
                deliver(job, result, reused)
            for job, result in finished:
                deliver(job, result, False)
        except KeyboardInterrupt:
            for job, result in drained(finished):
                deliver(job, result, False)
            raise
    except KeyboardInterrupt:
        progress.close()
        for index in sorted(waiting):  # finished behind one still running: shown all the same
            _shown(show, waiting[index], options)
        show.finish()
        kept = f"; {options.results} keeps the {progress.done} finished" if stored else ""
        error(f"interrupted after {progress.done} of {len(jobs)} targets{kept}")
        return INTERRUPTED
    finally:
        progress.close()
        if stored is not None:
            stored.close()
    show.finish()
    return status


def _shown(show: Any, result: dict[str, Any], options: argparse.Namespace) -> int:
    """Show one result; the exit status it calls for."""
    show.show(result)
    if "error" in result:
        return USAGE
    return FAILED if _fails(result, options.fail_on) and not options.exit_zero else OK


def _fails(result: dict[str, Any], threshold: str) -> bool:
    counts = result.get("summary", {}).get("findings", {})
    return bool(counts.get("error")) or (threshold == "warning" and bool(counts.get("warning")))


def start(argv: list[str]) -> None:
    """Start the warm parent while the arguments are read: it imports torch meanwhile."""
    if not any(word == "--scheduler" or word.startswith("--scheduler=") for word in argv):
        from ..cohort.client import shared_zygote

        shared_zygote(warm=False)


COMMAND = Command("check", "trace one forward pass per target and report its findings", add_arguments, run, start)
