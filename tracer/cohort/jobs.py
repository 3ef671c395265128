"""One target's check as plain data: what the child needs, and how a results file keys it."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from ..specs import Spec, content_hash, imported_packages, parse, source_file

DEFAULT_TIMEOUT = 120.0
RESULT_OPTIONS = ("device", "layout", "value_budget", "witness", "timeout", "max_memory")
ZOO = "attnscope.zoo"  # in `preload`: load the zoo catalogues (their entry-point group) in the warm parent


@dataclass(frozen=True)
class Job:
    """Check `target` once, in a child process, within `timeout` seconds and `max_memory` bytes.

    `cwd` is the directory the target was named from (relative paths and the user's own
    file reads resolve there); `preload` names installed modules the warm parent imports
    before forking (the libraries the submissions import); `diagrams` asks the child for
    the DOT source of each flagged block (for `attnscope report`).
    """

    index: int
    target: str
    cwd: str
    device: str | None = None
    layout: str | None = None
    value_budget: int | None = None
    witness: bool = True
    timeout: float = DEFAULT_TIMEOUT
    max_memory: int | None = None
    threads: int = 1
    diagrams: bool = False
    preload: tuple[str, ...] = ()
    sha256: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["preload"] = list(self.preload)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Job:
        return cls(**{**data, "preload": tuple(data.get("preload", ()))})


def identity(target: str, cwd: str) -> str:
    """What makes two targets the same one: the real path of their file and their NAME
    (`subs/a.py:build` and `./subs/a.py:build`), else the target as given."""
    try:
        spec: Spec | None = parse(target)
    except Exception:  # a malformed target is itself
        return target
    path = source_file(spec, cwd) if spec and spec.kind in ("file", "notebook", "recording") else None
    return json.dumps([spec.kind, os.path.realpath(path), spec.name]) if spec and path else target


def distinct(targets: list[str]) -> list[str]:
    """`targets` with each one only the first time it is named (given twice, matched by two patterns)."""
    cwd = os.getcwd()
    seen: set[str] = set()
    kept = []
    for target in targets:
        same = identity(target, cwd)
        if same not in seen:
            seen.add(same)
            kept.append(target)
    return kept


def make_jobs(targets: list[str], **settings: Any) -> list[Job]:
    """One job per target, with the content hash of its file and the libraries it imports.

    `settings` are the `Job` fields shared by all (device, layout, timeout, ...). `options`
    records the settings that change a result (the limits too: a longer --timeout may let
    a target finish), so a results file re-checks a target whose options changed.
    """
    cwd = os.getcwd()
    options = {key: settings.get(key) for key in RESULT_OPTIONS}
    # Several zoo targets: the warm parent loads the whole zoo once; one imports its own module.
    zoo = (ZOO,) if sum(target.startswith("zoo:") for target in targets) > 1 else ()
    jobs = []
    for index, target in enumerate(targets):
        try:
            spec: Spec | None = parse(target)
        except Exception:  # a malformed target fails in the child with its own message
            spec = None
        path = source_file(spec, cwd) if spec else None
        preload = tuple(imported_packages(path)) + (zoo if spec and spec.kind == "zoo" else ())
        jobs.append(Job(index, target, cwd, preload=preload, sha256=content_hash(path), options=options, **settings))
    return jobs
