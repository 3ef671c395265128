"""Talking to a zygote from another process: submit a job, get a future of its one object.

One zygote serves a whole process (the CLI run, a test session, a Dask worker): it is
started on first use and kept while it lives, so torch is imported once per process
however many checks it makes. This side never imports torch.
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import subprocess
import sys
import threading
from concurrent.futures import Future
from typing import IO, Any

from .jobs import Job

TRACER_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = "from tracer.cohort.zygote import main; main()"


class ZygoteGone(RuntimeError):
    """The zygote process ended (or could not start): no result will come for what it held."""


class Zygote:
    """A running zygote process and the futures of the jobs sent to it."""

    def __init__(self, preload: list[str] | tuple[str, ...] = (), warm: bool = True) -> None:
        """Start a zygote that imports `preload`; `warm` for many targets (see `zygote.warm`)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [TRACER_ROOT, env.get("PYTHONPATH")]))
        self.process = subprocess.Popen(
            [sys.executable, "-c", START, json.dumps(sorted(set(preload))), *(["warm"] if warm else [])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd="/", env=env, close_fds=True,
        )
        self.preloaded = set(preload)
        self.warm = warm
        self.used = False  # no job sent yet: nothing of the user's runs in it
        self.lock = threading.Lock()
        self.ids = itertools.count()
        self.waiting: dict[int, Future] = {}
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()

    def alive(self) -> bool:
        return self.process.poll() is None and self.reader.is_alive()

    def _read(self, stream: IO[bytes]) -> None:
        for line in stream:
            message = json.loads(line)
            with self.lock:
                future = self.waiting.pop(message["id"], None)
            if future is not None:
                future.set_result(message["result"])
        with self.lock:
            waiting, self.waiting = self.waiting, {}
        for future in waiting.values():
            future.set_exception(ZygoteGone(f"attnscope's worker process ended (status {self.process.wait()})"))

    def _write(self, message: dict[str, Any]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write((json.dumps(message) + "\n").encode())
            stdin.flush()
        except (BrokenPipeError, ValueError) as problem:
            raise ZygoteGone("attnscope's worker process is gone") from problem

    def prepare(self, preload: list[str] | tuple[str, ...], warm: bool) -> None:
        """Have the zygote import `preload` (and warm up, if asked) before the next forks."""
        missing = sorted(set(preload) - self.preloaded)
        warm = warm and not self.warm
        if missing or warm:
            with self.lock:
                self.preloaded.update(missing)
                self.warm = self.warm or warm
                self._write({"preload": missing, "warm": warm})

    def submit(self, job: Job) -> Future:
        """Start `job` in a new child now; the future gives the target's one object."""
        self.prepare(job.preload, warm=False)
        future: Future = Future()
        self.used = True
        with self.lock:
            request = next(self.ids)
            self.waiting[request] = future
            self._write({"id": request, "job": job.to_dict()})
        return future

    def close(self, wait: bool = True) -> None:
        """End the zygote: it kills the children still running and exits.

        At the end of the process nobody waits for it: it needs no more than its end of
        the pipe closing, and an interpreter holding torch takes a while to tear down. One
        that never got a job (started early, then a usage error) is killed: it has no
        children, and would otherwise finish importing torch for nothing.
        """
        if not self.used:
            self.process.kill()
        if self.process.stdin and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        if not wait:
            return
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_shared: Zygote | None = None
_shared_lock = threading.Lock()


def shared_zygote(preload: list[str] | tuple[str, ...] = (), warm: bool = True) -> Zygote:
    """This process's zygote, started on first use (or again if it died), ended at exit.

    An existing one is asked to import what `preload` adds (and to warm up, if it was
    started cold for a single target and many now follow).
    """
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive():
            _shared = Zygote(preload, warm)
            atexit.register(_shared.close, wait=False)
        else:
            _shared.prepare(preload, warm)
        return _shared
