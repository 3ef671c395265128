"""`attnscope check TARGET...`: findings like a compiler, or one object per target in a chosen format.

Every target is checked in its own child process of a warm parent (`tracer.cohort`):
student code is untrusted, so a target that hangs, crashes, exits, allocates past
`--max-memory` or prints costs only its own result. `--jobs N` children run at once,
here or on a Dask cluster (`--scheduler`); results come out in target order whatever
order they finish in. `--results FILE.jsonl` keeps each result as it ends and skips
those already there, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import os
from typing import Any, Iterator

from ..formats import FORMATS
from ..specs import expand, problem
from .common import FAILED, OK, USAGE, Command, add_device_argument, add_layout_argument, error, parse_size

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
    parser.add_argument("--value-budget", type=parse_size, metavar="SIZE", default=None,
                        help="memory for the value copies the value checks read (e.g. 256M; default 64M): "
                             "raise it when the report says a check was limited by the budget")
    batch = parser.add_argument_group("many targets (each runs in its own child process)")
    batch.add_argument("--jobs", "-j", type=_jobs, default=None, metavar="N",
                       help=f"check N targets at once (default: the number of cores, {cores()} here)")
    batch.add_argument("--timeout", type=_positive, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                       help=f"kill a target still running after this long (default: {DEFAULT_TIMEOUT:g})")
    batch.add_argument("--max-memory", type=parse_size, default=None, metavar="SIZE",
                       help="memory one target may allocate beyond attnscope's own (e.g. 2G; default: no limit)")
    batch.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="run the targets on a Dask distributed cluster (tcp://host:8786), or 'local' for a "
                            "LocalCluster here; needs attnscope[dask]")
    batch.add_argument("--results", metavar="FILE.jsonl", default=None,
                       help="append each target's result to FILE and skip targets already in it (same file "
                            "content and options), so an interrupted run resumes; `attnscope report FILE` sums it up")


def _settings(options: argparse.Namespace, parallel: int) -> dict[str, Any]:
    return {
        "device": options.device, "layout": options.layout, "value_budget": options.value_budget,
        "witness": options.witness == "on",
        "timeout": options.timeout, "max_memory": options.max_memory,
        "threads": max(1, cores() // parallel), "diagrams": bool(options.results),
    }


def _results(jobs: list, options: argparse.Namespace, parallel: int, stored: Any) -> Iterator[tuple[Any, dict, bool]]:
    """(job, result, reused) for every job: refused and stored ones first, then as children finish."""
    fresh = []
    for job in jobs:
        refused = problem(job.target)
        reused = stored.stored(job) if stored else None
        if refused:
            yield job, {"target": job.target, "error": refused, "kind": "target"}, False
        elif reused is not None:
            yield job, reused, True
        else:
            fresh.append(job)
    if not fresh:
        return
    if options.scheduler:
        from ..cohort.dask import run_dask

        finished = run_dask(fresh, options.scheduler, parallel)
    else:
        from ..cohort.local import run_local

        finished = run_local(fresh, parallel)
    for job, result in finished:
        yield job, result, False


def run(options: argparse.Namespace) -> int:
    from ..cohort.jobs import make_jobs
    from ..cohort.progress import Progress
    from ..cohort.results import ResultsError, ResultsFile, printed
    from ..formats import presenter

    targets = expand(options.targets)
    parallel = max(1, min(options.jobs or cores(), len(targets)))  # fewer targets than cores: more threads each
    try:
        stored = ResultsFile(options.results) if options.results else None
    except ResultsError as problem_:
        error(str(problem_))
        return USAGE
    jobs = make_jobs(targets, **_settings(options, parallel))
    show = presenter(options.format)
    progress = Progress(len(jobs))
    waiting: dict[int, dict[str, Any]] = {}
    shown = 0
    status = OK
    try:
        for job, result, reused in _results(jobs, options, parallel, stored):
            if stored is not None and not reused:
                stored.append(job, result)
            progress.advance(job.target, result, reused)
            waiting[job.index] = printed(result)
            while shown in waiting:  # in target order, whatever order they finished in
                ready = waiting.pop(shown)
                show.show(ready)
                shown += 1
                if "error" in ready:
                    status = USAGE
                elif _fails(ready, options.fail_on) and not options.exit_zero:
                    status = max(status, FAILED)
    except KeyboardInterrupt:
        kept = f"; {options.results} keeps the {progress.done} finished" if stored else ""
        error(f"interrupted after {progress.done} of {len(jobs)} targets{kept}")
        return INTERRUPTED
    finally:
        progress.close()
        if stored is not None:
            stored.close()
    show.finish()
    return status


def _fails(result: dict[str, Any], threshold: str) -> bool:
    counts = result.get("summary", {}).get("findings", {})
    return bool(counts.get("error")) or (threshold == "warning" and bool(counts.get("warning")))


def start(argv: list[str]) -> None:
    """Start the warm parent while the arguments are read: it imports torch meanwhile."""
    if not any(word == "--scheduler" or word.startswith("--scheduler=") for word in argv):
        from ..cohort.client import shared_zygote

        shared_zygote(warm=False)


COMMAND = Command("check", "trace one forward pass per target and report its findings", add_arguments, run, start)
