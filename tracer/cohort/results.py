"""The results file of `check --results FILE.jsonl`: one line per target, appended as each ends.

A line is the target's object (as `--format json` prints it) plus what makes it reusable:
`sha256` (the target's file content) and `options` (the settings that change a result).
A later run with the same file skips every target whose target, content and options are
already there, so an interrupted run resumes where it stopped; `--recheck failed` checks
again those whose recorded result is a failure (a timeout, a crash, ...). The lines may also carry
`diagrams` (the DOT source of flagged blocks) for `attnscope report`.
"""

from __future__ import annotations

import json
import os
from typing import IO, Any

from .jobs import Job

STORED_ONLY = ("sha256", "options", "diagrams")  # in the file, not in what `check` prints


class ResultsError(ValueError):
    """A results file that cannot be read or written; the message is one line."""


def key(target: str, sha256: str | None, options: dict[str, Any]) -> str:
    return json.dumps([target, sha256, options], sort_keys=True)


def read_results(path: str) -> list[dict[str, Any]]:
    """Every complete line of a results file (a last line cut by an interruption is ignored)."""
    try:
        with open(path, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
    except FileNotFoundError:
        return []
    except OSError as problem:
        raise ResultsError(f"cannot read {path}: {problem.strerror or problem}") from None
    results = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError:
            if number == len(lines):  # the line being written when the run was stopped
                continue
            raise ResultsError(f"{path}:{number}: not a JSON line of attnscope results") from None
        if not isinstance(item, dict) or "target" not in item:
            raise ResultsError(f"{path}:{number}: not a result of attnscope check (no \"target\")")
        results.append(item)
    return results


def printed(item: dict[str, Any]) -> dict[str, Any]:
    """A stored line as `check` prints it."""
    return {name: value for name, value in item.items() if name not in STORED_ONLY}


class ResultsFile:
    """The results already in `path` (by key), and the file open for appending new ones.

    With `recheck_failed`, a recorded failure is not reused: its target is checked again.
    """

    def __init__(self, path: str, recheck_failed: bool = False) -> None:
        self.path = path
        self.recheck_failed = recheck_failed
        self.done = {key(item["target"], item.get("sha256"), item.get("options", {})): item
                     for item in read_results(path)}
        self._ensure_line_start()
        try:
            self.stream: IO[str] = open(path, "a", encoding="utf-8")
        except OSError as problem:
            raise ResultsError(f"cannot write {path}: {problem.strerror or problem}") from None

    def _ensure_line_start(self) -> None:
        """Drop a half-written last line left by an interruption, so appended lines stay whole."""
        try:
            with open(self.path, "rb+") as stream:
                data = stream.read()
                if data and not data.endswith(b"\n"):
                    stream.truncate(data.rfind(b"\n") + 1)
        except FileNotFoundError:
            pass
        except OSError as problem:
            raise ResultsError(f"cannot write {self.path}: {problem.strerror or problem}") from None

    def stored(self, job: Job) -> dict[str, Any] | None:
        """The recorded result `job` may reuse, or None when it is to be checked."""
        found = self.done.get(key(job.target, job.sha256, job.options))
        return None if found is None or (self.recheck_failed and "error" in found) else found

    def append(self, job: Job, result: dict[str, Any]) -> None:
        line = {**result, "sha256": job.sha256, "options": job.options}
        self.stream.write(json.dumps(line) + "\n")
        self.stream.flush()
        os.fsync(self.stream.fileno())

    def close(self) -> None:
        self.stream.close()
