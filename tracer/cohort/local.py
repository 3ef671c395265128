"""Run jobs on this machine, at most N at a time, each in its own child of the shared zygote."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any, Iterator

from .client import ZygoteGone, shared_zygote
from .jobs import Job


def gone(job: Job, problem: BaseException) -> dict[str, Any]:
    return {"target": job.target, "error": f"{job.target}: {problem}", "kind": "crashed"}


def run_local(jobs: list[Job], parallel: int) -> Iterator[tuple[Job, dict[str, Any]]]:
    """Each job's one object, in the order they finish; `parallel` children run at once.

    On Ctrl-C (raised here, or thrown in at a `yield`), the results that have come in are
    handed over first; then the KeyboardInterrupt goes on.
    """
    preload = sorted({name for job in jobs for name in job.preload})
    zygote = shared_zygote(preload, warm=len(jobs) > 1)
    queue = list(reversed(jobs))
    running: dict[Future, Job] = {}
    try:
        while queue or running:
            while queue and len(running) < max(1, parallel):
                job = queue.pop()
                try:
                    running[zygote.submit(job)] = job
                except ZygoteGone as problem:
                    yield job, gone(job, problem)
            if not running:
                continue
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                job = running.pop(future)
                yield job, _result(job, future)
    except KeyboardInterrupt:
        for future, job in list(running.items()):
            if future.done():
                del running[future]
                yield job, _result(job, future)
        raise


def _result(job: Job, future: Future) -> dict[str, Any]:
    try:
        return future.result()
    except ZygoteGone as problem:
        return gone(job, problem)
