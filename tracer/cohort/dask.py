"""Run jobs on a Dask distributed cluster: the same isolated child, on the workers' machines.

Each job is one Dask task. The task runs in a worker process, which keeps its own zygote
(started by its first task), so a worker imports torch once and every target still gets a
fresh child with its timeout and memory limit. Targets are named by path: the workers must
see the same files at the same paths (a shared file system, as on a Slurm cluster or a
Kubernetes volume). `--scheduler local` starts a `LocalCluster` on this machine instead.
"""

from __future__ import annotations

from typing import Any, Iterator

from .jobs import Job

CONNECT_TIMEOUT = "20s"  # to reach the scheduler, then the run waits as long as its jobs take


def check_on_worker(job: dict[str, Any]) -> dict[str, Any]:
    """The Dask task: one job in a child of this worker process's zygote."""
    from .client import shared_zygote

    parsed = Job.from_dict(job)
    return shared_zygote(parsed.preload).submit(parsed).result()


def _client(address: str, parallel: int) -> Any:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        from ..specs import TargetError

        raise TargetError("--scheduler needs Dask: pip install 'attnscope[dask]' (dask[distributed])") from None
    if address == "local":
        # Threads in one worker process: the isolation is the zygote's children, so one
        # worker process (one zygote, one torch import) serves every thread.
        cluster = LocalCluster(n_workers=1, threads_per_worker=max(1, parallel), processes=False,
                               dashboard_address=None)
        return Client(cluster)
    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as problem:
        from ..specs import TargetError

        raise TargetError(f"cannot reach the Dask scheduler at {address}: {problem}") from None


def _result(job: Job, future: Any) -> dict[str, Any]:
    try:
        return future.result()
    except Exception as problem:  # noqa: BLE001 - a worker that died: that target's outcome
        return {"target": job.target, "error": f"{job.target}: the Dask worker failed: {problem}", "kind": "crashed"}


def run_dask(jobs: list[Job], address: str, parallel: int) -> Iterator[tuple[Job, dict[str, Any]]]:
    """Each job's one object, in the order they finish on the cluster at `address` (or "local");
    on Ctrl-C, those that have come in first."""
    from distributed import as_completed

    client = _client(address, parallel)
    try:
        futures = {
            client.submit(check_on_worker, job.to_dict(), pure=False, key=f"attnscope-check-{job.index}-{id(jobs)}"): job
            for job in jobs
        }
        waiting = dict(futures)
        try:
            for future in as_completed(futures):
                job = waiting.pop(future)
                yield job, _result(job, future)
        except KeyboardInterrupt:  # hand over what has come in, then stop (as `run_local` does)
            for future, job in list(waiting.items()):
                if future.done():
                    del waiting[future]
                    yield job, _result(job, future)
            raise
    finally:
        cluster = getattr(client, "cluster", None)
        client.close()
        if cluster is not None:
            cluster.close()
