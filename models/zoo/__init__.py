"""The zoo: small built-in models reachable as `zoo:NAME` targets.

Each module in this package is one entry. Its docstring's first line says what it is (for a
buggy model: the bug), and it defines:

- ``build()`` returning ``(model, args)``, ``(model, args, kwargs)`` or ``(model, kwargs)``;
- ``EXPECTED``: the finding codes it must trigger (``()`` for a correct model);
- optionally ``ALSO``: codes that follow directly from the bug (named in the docstring).

Sequence-first (T, B, ...) models need no flag: attnscope reads the layout from what the
forward pass does with its inputs.

The line that holds the bug carries a trailing ``# BUG: <code>`` comment, so tests can check
that a finding points at it.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable


@dataclass(frozen=True)
class ZooModel:
    """One zoo entry, as listed by `attnscope zoo`."""

    name: str
    summary: str
    expected: tuple[str, ...]
    also: tuple[str, ...]
    build: Callable[[], Any]
    module: ModuleType


def _entry(module: ModuleType) -> ZooModel:
    doc = (module.__doc__ or "").strip()
    return ZooModel(
        name=module.__name__.rsplit(".", 1)[-1],
        summary=doc.splitlines()[0] if doc else "",
        expected=tuple(getattr(module, "EXPECTED", ())),
        also=tuple(getattr(module, "ALSO", ())),
        build=module.build,
        module=module,
    )


def catalogue() -> dict[str, ZooModel]:
    """All zoo entries by name, sorted."""
    entries = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        entries[info.name] = _entry(module)
    return entries
