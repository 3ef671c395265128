"""Every process a target started, found and killed, also those that left its group.

A child is a session leader (its own session and process group), so one `killpg` reaches
whatever stays in its group. A submission can leave it (`subprocess.Popen(...,
start_new_session=True)`, a double fork). On Linux the warm parent and each child are
therefore *subreapers* (`PR_SET_CHILD_SUBREAPER`): what is orphaned below them is handed
to them instead of to init, so it stays a descendant in /proc while its child runs, and
once that child has ended, what it left behind is a child of the warm parent that the
warm parent never forked: an orphan to kill. Elsewhere only the group is killed.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import Callable

PR_SET_CHILD_SUBREAPER = 36  # from <linux/prctl.h>
# Whether this kernel lists each task's children (CONFIG_PROC_CHILDREN); else /proc/N/stat is read.
CHILDREN_FILES = os.path.exists(f"/proc/self/task/{os.getpid()}/children")


def become_subreaper() -> None:
    """Adopt this process's orphaned descendants (Linux; elsewhere nothing happens)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _children_from_stat(pid: int) -> set[int]:
    """The children of `pid` by each process's parent in /proc/N/stat (kernels without
    /proc/N/task/T/children)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            continue
        if len(fields) > 1 and int(fields[1]) == pid:
            found.add(int(entry))
    return found


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (zombies included), from /proc; none without /proc."""
    if not CHILDREN_FILES:
        return _children_from_stat(pid) if os.path.isdir("/proc") else set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return set()
    found: set[int] = set()
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listing:
                found.update(int(word) for word in listing.read().split())
        except OSError:  # the task ended meanwhile
            continue
    return found


def descendants(pid: int) -> list[int]:
    """Every process below `pid` in the process tree, parents before their children."""
    found: list[int] = []
    frontier = [pid]
    while frontier:
        below = [child for parent in frontier for child in sorted(children(parent)) if child not in found]
        found.extend(below)
        frontier = below
    return found


def kill_group(pid: int) -> None:
    """SIGKILL the process group led by `pid` (a child that has ended: what it started is
    either still in its group, or adopted, and so found among the orphans)."""
    _sigkill(os.killpg, pid)


def kill_tree(pid: int) -> None:
    """SIGKILL `pid`'s process group, `pid` and every descendant of it (found first, while
    `pid` still holds them)."""
    below = descendants(pid)
    kill_group(pid)
    for member in [pid, *below]:
        _sigkill(os.kill, member)


def _sigkill(kill: Callable[[int, int], None], target: int) -> None:
    try:
        kill(target, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
