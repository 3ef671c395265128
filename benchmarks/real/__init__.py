"""Harnesses that build real repositories' models with tiny configs (see run.py).

Each harness module names its `REPOSITORY`, the `COMMIT` it was written against, the `FOLDER`
the user fetched it into, and `EXPECTED`: the codes each of its build functions must give
(`[]`: clean). Fetched code is never part of this project; a harness only imports it.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

SOURCES = "ATTNSCOPE_REAL_SOURCES"  # the folder holding the fetched repositories


def source_module(folder: str, name: str) -> ModuleType:
    """Import `name` from the fetched repository `folder` under $ATTNSCOPE_REAL_SOURCES."""
    root = os.path.join(os.environ.get(SOURCES, "."), folder)
    if not os.path.isdir(root):
        raise ImportError(f"{folder} is not fetched into {os.environ.get(SOURCES, '.')} (set {SOURCES})")
    if root not in sys.path:
        sys.path.insert(0, root)
    return importlib.import_module(name)
