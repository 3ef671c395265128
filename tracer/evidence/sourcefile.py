"""The user's source files, parsed once per process and per version of the file.

Provenance notes read class definitions and registration lines from the user's source. A
check asks again on every run (a notebook or a test session checks the same model many
times), and a walk over a large file such as HuggingFace's modeling code costs milliseconds,
so each file is parsed once while its modification time and size stay the same, its
classes are indexed by name, and what was asked of it is kept with it (`memo`).
"""

from __future__ import annotations

import ast
import linecache
import os
from dataclasses import dataclass, field

MAX_FILES = 64  # the user's files of one model are a handful; a cohort run moves on to other models


@dataclass
class SourceFile:
    tree: ast.Module
    classes: dict[str, list[ast.ClassDef]]  # by name, in `ast.walk` order
    memo: dict[tuple, object] = field(default_factory=dict)  # answers about this version of the file


Version = tuple[int, int] | None  # (mtime in ns, size); None for source that is not a file on disk

_files: dict[str, tuple[Version, SourceFile | None]] = {}


def _version(filename: str) -> Version:
    try:
        status = os.stat(filename)
    except (OSError, ValueError):
        return None
    return status.st_mtime_ns, status.st_size


def parsed(filename: str) -> SourceFile | None:
    """`filename` parsed, from the cache while the file is unchanged; None if it cannot be read or parsed."""
    version = _version(filename)
    known = _files.get(filename)
    if known is not None and known[0] == version:
        return known[1]
    if known is not None:
        linecache.checkcache(filename)  # linecache keeps the old text of a file edited since
    if len(_files) >= MAX_FILES:
        del _files[next(iter(_files))]
    found = _files[filename] = version, _parse(filename)
    return found[1]


def _parse(filename: str) -> SourceFile | None:
    source = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(source) if source else None
    except SyntaxError:
        return None
    if tree is None:
        return None
    classes: dict[str, list[ast.ClassDef]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            classes.setdefault(node.name, []).append(node)
    return SourceFile(tree, classes)
