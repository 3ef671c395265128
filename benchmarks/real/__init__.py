"""Harnesses that build real repositories' models with tiny configs (see run.py).

Each harness module names its `REPOSITORY`, the `COMMIT` it was written against, the `FOLDER`
the user fetched it into, and `EXPECTED`: the codes each of its build functions must give
(`[]`: clean). A harness may also name `KNOWN_WRONG`: build function -> why attnscope's
current answer differs from `EXPECTED` (a false alarm or a miss, with its reproduction);
run.py reports those as known and does not fail on them. Fetched code is never part of
this project; a harness only imports it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from types import ModuleType

SOURCES = "ATTNSCOPE_REAL_SOURCES"  # the folder holding the fetched repositories


def source_root(folder: str) -> str:
    """The fetched repository `folder` under $ATTNSCOPE_REAL_SOURCES, put on sys.path."""
    root = os.path.join(os.environ.get(SOURCES, "."), folder)
    if not os.path.isdir(root):
        raise ImportError(f"{folder} is not fetched into {os.environ.get(SOURCES, '.')} (set {SOURCES})")
    if root not in sys.path:
        sys.path.insert(0, root)
    return root


def source_module(folder: str, name: str) -> ModuleType:
    """Import `name` from the fetched repository `folder` under $ATTNSCOPE_REAL_SOURCES."""
    source_root(folder)
    return importlib.import_module(name)


def source_file(folder: str, path: str) -> ModuleType:
    """Import one file of `folder` by its path, for a repository whose package name is taken
    (DETR's `models` is this project's own) or whose package `__init__` imports what is not
    installed. The module is named after the folder and path, so it clashes with nothing."""
    root = source_root(folder)
    name = "real_" + "".join(c if c.isalnum() else "_" for c in f"{folder}_{path.removesuffix('.py')}")
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, os.path.join(root, path))
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def source_package(folder: str, *packages: str) -> None:
    """Register `packages` of `folder` without running their `__init__`, for packages whose
    `__init__` imports the whole application (litgpt's imports lightning, OpenNMT's its data
    pipeline and tokenizer) where the model modules need none of it; their modules then import
    as usual."""
    root = source_root(folder)
    for package in packages:
        if package not in sys.modules:
            module = ModuleType(package)
            module.__path__ = [os.path.join(root, *package.split("."))]
            sys.modules[package] = module


def stand_in(name: str, **attributes) -> None:
    """Register a module `name` holding only `attributes`, for an import a repository's model
    file makes but its model never uses (DETR's util.misc reads torchvision's version only),
    unless the real module imports."""
    if name in sys.modules:
        return
    try:
        importlib.import_module(name)
    except ImportError:
        module = ModuleType(name)
        module.__dict__.update(attributes)
        sys.modules[name] = module
