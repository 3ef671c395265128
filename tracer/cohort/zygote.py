"""The warm parent: imports torch and attnscope once, then forks one child per target.

Started by `client.Zygote` as its own process, it reads one JSON request per line on its
standard input and answers one JSON line per finished target on its standard output:

    -> {"id": 7, "job": {...Job...}}          fork a child for this job now
    -> {"preload": ["transformers", ...], "warm": true}
                                              import these installed modules before later forks
                                              (and run the warm-up check, if not done yet)
    <- {"id": 7, "result": {...}}             the target's one object (outcome.py)

It never runs user code itself: it only imports installed libraries and forks. Each child
is its own session, and this process adopts what a child leaves behind (`processes`), so
a timeout or a child's end kills the child and whatever it started, also what left its
group. When its standard input closes (the client is gone), it kills what is left and exits.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import json
import os
import selectors
import signal
import sys
import sysconfig
import time
from dataclasses import dataclass, field
from typing import Any

from .jobs import ZOO, Job
from .outcome import Output, outcome
from .processes import become_subreaper, children, kill_group, kill_tree

GRACE = 1.0  # seconds to wait for a dead child's pipes, held open by something it started
MAX_RESULT = 256 << 20  # a result larger than this is not attnscope's: the child is killed
READ_SIZE = 1 << 16
MAX_CRASH = 1 << 16  # bytes of a fatal error's stack read back (faulthandler stops at 100 frames a thread)


# --------------------------------------------------------------------------- warming up
def _installed(name: str) -> bool:
    """Whether top-level module `name` is an installed library (never the user's own file)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    origin = getattr(spec, "origin", None) or next(iter(getattr(spec, "submodule_search_locations", None) or []), "")
    if not origin or origin in ("built-in", "frozen"):
        return spec is not None
    roots = {os.path.realpath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    return os.path.realpath(origin).startswith(tuple(root + os.sep for root in roots))


def preload(name: str) -> None:
    """Import `name` ("pkg", "pkg.sub" or "pkg.Attribute") if it is installed; ignore any failure."""
    try:
        if name == ZOO:
            from ..targets import zoo_entries

            zoo_entries()
            return
        top, _, rest = name.partition(".")
        if not _installed(top):
            return
        module = importlib.import_module(top)
        for part in rest.split(".") if rest else ():
            try:
                module = importlib.import_module(f"{module.__name__}.{part}")
            except ImportError:
                module = getattr(module, part)  # a lazily exported class (`transformers.LlamaModel`)
    except Exception:  # noqa: BLE001 - a module that fails here fails again, reported, in the child
        pass


def warm(names: list[str], check: bool) -> None:
    """Import torch, attnscope and `names`; with `check`, also run one tiny check.

    The tiny check does once what each child's first check would do (lazy imports inside
    the analysis, torch's first calls): worth it for many targets, not for one.
    """
    import torch

    torch.set_num_threads(1)  # no thread pool before fork: each child sizes its own
    from ..api import run_check
    from . import child  # the child's code, imported before the fork
    from ..commands import common  # noqa: F401

    if not child.OWN_MODULES:
        child.OWN_MODULES = frozenset(name.partition(".")[0] for name in sys.modules)
    for name in names:
        preload(name)
    if check:
        _tiny_check(torch, run_check)
    # Everything imported so far lives as long as the zygote: keep the collector out of it,
    # so a child neither walks those objects nor copies their pages by touching them.
    gc.collect()
    gc.freeze()


def _tiny_check(torch: Any, run_check: Any) -> None:
    """One small masked attention with a layer norm, and its diagram: the paths most
    submissions take (the diagram: `--results` keeps those of flagged blocks)."""
    from ..render import diagram

    class Tiny(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            scores = x @ x.transpose(-2, -1) / 2.0
            later = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)
            weights = torch.softmax(scores.masked_fill(later, float("-inf")), dim=-1)
            return torch.nn.functional.layer_norm(weights @ x, (4,))

    _, recorded = run_check(Tiny().eval(), (torch.randn(2, 3, 4),))
    diagram(recorded, depth=2).graph.source


# --------------------------------------------------------------------------- the children
@dataclass
class Child:
    """One running target: its pipes, its deadline, what it has sent so far."""

    request: int
    job: Job
    pid: int
    deadline: float
    result_fd: int | None
    output_fd: int | None
    crash_fd: int
    result: bytearray = field(default_factory=bytearray)
    output: Output = field(default_factory=Output)
    status: int | None = None
    reaped_at: float = 0.0
    timed_out: bool = False
    answered: bool = False  # its object was sent; it is kept only until it is reaped

    def open_fds(self) -> list[int]:
        return [fd for fd in (self.result_fd, self.output_fd) if fd is not None]

    def crash(self) -> bytes:
        """What faulthandler wrote to the child's crash file (empty unless it died of a fatal error)."""
        return os.pread(self.crash_fd, MAX_CRASH, 0)


def _crash_file() -> int:
    """An unnamed file for a child's fatal-error stack: faulthandler writes it from a signal
    handler, where a full pipe would block; the parent reads it once the child has ended."""
    if hasattr(os, "memfd_create"):
        return os.memfd_create("attnscope-crash")
    import tempfile

    with tempfile.TemporaryFile() as unnamed:
        return os.dup(unnamed.fileno())


class Zygote:
    """One loop over the request pipe, the children's pipes and SIGCHLD (through a wake-up
    pipe): fork on request, drain output and results, kill at deadlines, reap, answer."""

    def __init__(self, requests: int, responses: int) -> None:
        self.requests = requests
        self.responses = responses
        self.pending = b""
        self.children: dict[int, Child] = {}
        self.selector = selectors.DefaultSelector()
        self.wake_r, self.wake_w = os.pipe()
        os.set_blocking(self.wake_w, False)
        os.set_blocking(self.wake_r, False)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # only to wake the selector
        self.selector.register(requests, selectors.EVENT_READ, "requests")
        self.selector.register(self.wake_r, selectors.EVENT_READ, "wake")

    # ------------------------------------------------------------------ requests
    def _fork(self, request: int, job: Job) -> None:
        result_r, result_w = os.pipe()
        output_r, output_w = os.pipe()
        crash = _crash_file()
        closing = [self.requests, self.responses, self.wake_r, self.wake_w, result_r, output_r]
        closing += [fd for running in self.children.values() for fd in (*running.open_fds(), running.crash_fd)]
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            from .child import main

            main(job, result_w, output_w, crash, closing)  # never returns
        os.close(result_w)
        os.close(output_w)
        running = Child(request, job, pid, time.monotonic() + job.timeout, result_r, output_r, crash)
        self.children[pid] = running
        for fd, what in ((result_r, "result"), (output_r, "output")):
            self.selector.register(fd, selectors.EVENT_READ, (pid, what))

    def _read_requests(self) -> bool:
        """Act on every complete request line; False once the client has gone."""
        data = os.read(self.requests, READ_SIZE)
        if not data:
            return False
        self.pending += data
        *lines, self.pending = self.pending.split(b"\n")
        for line in filter(None, lines):
            message = json.loads(line)
            if "preload" in message:
                warm(message["preload"], message.get("warm", False))
            else:
                self._fork(message["id"], Job.from_dict(message["job"]))
        return True

    # ------------------------------------------------------------------ children's pipes and ends
    def _read_child(self, pid: int, what: str, fd: int) -> None:
        running = self.children[pid]
        data = os.read(fd, READ_SIZE)
        if not data:
            self._close(running, what)
        elif what == "output":
            running.output.add(data)
        else:
            running.result += data
            if len(running.result) > MAX_RESULT:
                self._kill(running)

    def _close(self, running: Child, what: str) -> None:
        fd = running.result_fd if what == "result" else running.output_fd
        if fd is None:
            return
        self.selector.unregister(fd)
        os.close(fd)
        if what == "result":
            running.result_fd = None
        else:
            running.output_fd = None

    def _kill(self, running: Child) -> None:
        """Kill a child still running, with everything it started."""
        kill_tree(running.pid)

    def _kill_orphans(self) -> None:
        """Kill what ended children left behind: this process's children that it never forked
        (adopted as their subreaper), with everything below them."""
        for pid in children(os.getpid()) - self.children.keys():
            kill_tree(pid)

    def _forget(self, pid: int) -> None:
        running = self.children.pop(pid)
        self._close(running, "result")
        self._close(running, "output")
        os.close(running.crash_fd)

    def _ended(self) -> int:
        """The pid of a child that ended, not yet collected (0 if none). Where the platform can
        peek (waitid with WNOWAIT), its group is killed while its pid cannot be reused yet."""
        try:
            if hasattr(os, "waitid"):
                ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
                return ended.si_pid if ended is not None else 0
            return -1  # macOS: no waitid; waitpid below collects and reports it
        except ChildProcessError:
            return 0

    def _reap(self) -> None:
        """Collect every child that ended; kill what it left behind first."""
        ended = False
        while pid := self._ended():
            ended = True
            running = self.children.get(pid)
            if running is not None:
                kill_group(pid)  # while it is a zombie, its pid (its group's id) is not reused
            try:
                pid, status = os.waitpid(pid, 0 if pid > 0 else os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            running = self.children.get(pid)
            if running is None:
                continue
            if not hasattr(os, "waitid"):
                kill_group(pid)
            running.status, running.reaped_at = status, time.monotonic()
            if running.answered:
                self._forget(pid)
        if ended:
            self._kill_orphans()

    def _finish(self, now: float) -> None:
        """Answer for every child whose result is in (both pipes closed behind it), or that
        ended without one (its pipes drained, or held past the grace by what it started).

        A child that wrote its result closes its pipes before it exits, so its answer does
        not wait for the kernel to tear down its copy of the warm parent's memory.
        """
        for pid, running in list(self.children.items()):
            if running.answered:
                continue
            by_result = bool(running.result) and not running.open_fds() and not running.timed_out
            by_end = running.status is not None and (not running.open_fds() or now >= running.reaped_at + GRACE)
            if not (by_result or by_end):
                continue
            job = running.job
            status = running.status if running.status is not None else 0
            crash = running.crash() if running.status is not None else b""
            result = outcome(job.target, bytes(running.result), status, running.timed_out, job.timeout,
                             running.output, crash)
            self._send({"id": running.request, "result": result})
            running.answered = True
            if running.status is not None:
                self._forget(pid)

    def _send(self, message: dict) -> None:
        data = memoryview((json.dumps(message) + "\n").encode())
        while data:
            data = data[os.write(self.responses, data):]

    def _enforce_deadlines(self, now: float) -> None:
        for running in self.children.values():
            if running.status is None and not running.answered and not running.timed_out and now >= running.deadline:
                running.timed_out = True
                self._kill(running)

    def _wait_time(self, now: float) -> float | None:
        waiting = [running for running in self.children.values() if not running.answered]
        times = [running.deadline - now for running in waiting if running.status is None]
        times += [running.reaped_at + GRACE - now for running in waiting if running.status is not None]
        return max(0.0, min(times)) if times else None

    # ------------------------------------------------------------------ the loop
    def serve(self) -> None:
        try:
            while True:
                for key, _ in self.selector.select(self._wait_time(time.monotonic())):
                    if key.data == "requests":
                        if not self._read_requests():
                            return
                    elif key.data == "wake":
                        while True:
                            try:
                                if not os.read(self.wake_r, READ_SIZE):
                                    break
                            except BlockingIOError:
                                break
                    else:
                        pid, what = key.data
                        if pid in self.children:
                            self._read_child(pid, what, key.fd)
                self._reap()
                now = time.monotonic()
                self._enforce_deadlines(now)
                self._finish(now)
        finally:
            for running in self.children.values():
                self._kill(running)
            self._kill_orphans()


def main() -> None:
    """`python -c 'from tracer.cohort.zygote import main; main()' PRELOAD_JSON [warm]`: serve until stdin closes."""
    requests, responses = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)  # anything printed while importing goes to stderr, never into the protocol
    os.close(null)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the client's; it closes our stdin
    become_subreaper()
    here = os.getcwd()
    sys.path[:] = [entry for entry in sys.path if entry not in ("", ".", here)]  # never the user's modules
    warm(json.loads(sys.argv[1]) if len(sys.argv) > 1 else [], "warm" in sys.argv[2:])
    Zygote(requests, responses).serve()
    sys.stderr.flush()
    os._exit(0)  # no teardown of torch's modules: nobody is left to use them


if __name__ == "__main__":
    main()
