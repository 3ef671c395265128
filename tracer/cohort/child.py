"""What runs inside one target's child process, right after the warm parent forked it.

The child makes itself a session leader and the subreaper of what it starts (so the parent
can find and kill all of it, `processes`), sends its standard output and error to the
parent's capture pipe and a fatal error's stack to a crash file, limits its own memory,
checks the target, writes one JSON result to the result pipe and leaves with `os._exit`,
never returning into the parent's code. A target that never comes back is the parent's to kill.
"""

from __future__ import annotations

import faulthandler
import json
import os
import resource
import signal
import sys
import traceback
from typing import Any

from .frames import student_frames
from .jobs import Job
from .processes import become_subreaper

MAX_DIAGRAMS = 3  # flagged blocks drawn per target, for `attnscope report`

# Top-level modules attnscope itself needs, set by the warm parent before it preloads the
# libraries submissions import; those may be dropped in a child, these never.
OWN_MODULES: frozenset[str] = frozenset()


def data_size() -> int:
    """Bytes of private writable memory this process holds (VmData): torch and attnscope's own share."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmData:"):
                return int(line.split()[1]) * 1024
    return 0


def limit_memory(extra: int) -> None:
    """Let this process allocate `extra` bytes beyond what it holds now (RLIMIT_DATA).

    RLIMIT_DATA counts heap and anonymous mappings, which is where torch's CPU allocator
    and Python's objects live, and not the shared libraries mapped at import: a tensor
    past the limit fails to allocate (torch's "can't allocate memory", Python's
    MemoryError) instead of growing until the machine's OOM killer picks a process.
    """
    limit = data_size() + extra
    resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


def _diagrams(report: Any, recorded: Any) -> list[dict[str, Any]]:
    """The DOT source of each flagged block (the finding's module), for the cohort report."""
    from ..render import diagram

    drawn: list[dict[str, Any]] = []
    modules: dict[str, list[str]] = {}
    for finding in report.findings:
        if finding.severity in ("error", "warning"):
            modules.setdefault(finding.module, []).append(finding.code)
    for module, codes in list(modules.items())[:MAX_DIAGRAMS]:
        try:
            source = diagram(recorded, focus=module or None, depth=2).graph.source
        except Exception:  # noqa: BLE001 - a diagram is an extra: the findings stand without it
            continue
        drawn.append({"module": module, "codes": sorted(set(codes)), "dot": source})
    return drawn


def unshadow(folder: str) -> None:
    """Forget preloaded modules that the target's own folder provides (its `utils.py`), so
    that the target imports its own, as `python target.py` would."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    provided = {entry[:-3] if entry.endswith(".py") else entry for entry in entries} - OWN_MODULES - {"__main__"}
    for name in list(sys.modules):
        if name.partition(".")[0] in provided:
            del sys.modules[name]


def _folder(job: Job) -> str | None:
    from ..specs import TargetError, parse, source_file

    try:
        spec = parse(job.target)
    except TargetError:
        return None
    if spec.kind == "dotted":
        return job.cwd
    path = source_file(spec, job.cwd) if spec.kind in ("file", "notebook") else None
    return os.path.dirname(path) if path else None


def check(job: Job) -> dict[str, Any]:
    """The target's result object: its report, or `{"target", "error", "kind"}`."""
    from ..commands.common import trace_target
    from ..notebook import location
    from ..targets import TargetError, TargetExit, TargetMemory, isolated, out_of_memory

    def failure(message: str, kind: str, place: tuple[str, int] | None = None) -> dict[str, Any]:
        return {"target": job.target, "error": message, "kind": kind, **(location(*place) if place else {})}

    folder = _folder(job)
    if folder:
        unshadow(folder)
    try:
        with isolated():
            report, recorded = trace_target(
                job.target, layout=job.layout, device=job.device, value_budget=job.value_budget,
                witness=job.witness,
            )
    except TargetExit as problem:
        return failure(str(problem), "exit", problem.place)
    except TargetMemory as problem:
        return failure(str(problem), "memory", problem.place)
    except TargetError as problem:
        return failure(str(problem), "target", problem.place)
    except SystemExit as done:  # the forward pass called sys.exit
        return failure(f"{job.target}: the forward pass called sys.exit({done.code!r})", "exit")
    except MemoryError:
        return failure(f"{job.target}: out of memory while checking it", "memory")
    error = recorded.recording.error
    if error and out_of_memory(error):
        return failure(f"{job.target}: the forward pass ran out of memory ({error})", "memory")
    result = report.to_dict()
    if job.diagrams and report.findings:
        result["diagrams"] = _diagrams(report, recorded)
    return result


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main(job: Job, result_fd: int, output_fd: int, crash_fd: int, closing: list[int]) -> None:
    """Run one job in a freshly forked child; never returns."""
    status = 0
    try:
        os.setsid()
        become_subreaper()
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
            signal.signal(number, signal.SIG_DFL)
        for fd in closing:
            os.close(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(output_fd, 1)
        os.dup2(output_fd, 2)
        os.close(null)
        os.close(output_fd)
        faulthandler.enable(file=crash_fd)  # a segfault leaves its Python stack for the parent
        if job.max_memory:
            limit_memory(job.max_memory)
        import torch

        torch.set_num_threads(max(1, job.threads))
        if os.path.isdir(job.cwd):
            os.chdir(job.cwd)
        try:
            result = check(job)
        except BaseException as problem:  # attnscope's own failure on this target: reported, not raised
            print(student_frames(traceback.format_exc()), end="", file=sys.stderr)
            result = {"target": job.target, "error": f"attnscope failed on it: {type(problem).__name__}: {problem}",
                      "kind": "crashed"}
        _write_all(result_fd, json.dumps(result).encode())
        _hang_up(result_fd)
    except BaseException:  # noqa: BLE001 - nothing may return into the parent's loop
        status = 70  # EX_SOFTWARE: no result written
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def _hang_up(result_fd: int) -> None:
    """Close both pipes to the parent now: the result is complete, and the parent answers at
    once instead of waiting for this process's exit (tearing down its memory takes a while)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os.close(result_fd)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
