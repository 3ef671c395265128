"""`attnscope zoo`: list the built-in models, with the finding codes each must trigger.

The listing is read from the zoo's source files with `ast`, without importing them (and so
without importing torch): the zoo's convention (models/zoo/__init__.py) is one module per
entry whose docstring's first line is the summary and whose `EXPECTED` names the codes. A
catalogue that does not follow it is loaded and asked instead.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import sys
from importlib.metadata import entry_points

from .common import OK, Command

Row = tuple[str, str, str]  # name, expected codes (or "correct"), summary


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: the listing is short enough to read or grep."""


def _static_entry(path: str) -> tuple[str, tuple[str, ...]] | None:
    """(summary, expected) of one zoo module read as text, or None if it does not follow the convention."""
    try:
        with open(path, encoding="utf-8") as source:
            tree = ast.parse(source.read(), filename=path)
    except (OSError, SyntaxError, ValueError):
        return None
    expected: tuple[str, ...] = ()
    has_build = False
    for node in tree.body:
        has_build = has_build or (isinstance(node, ast.FunctionDef) and node.name == "build")
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "EXPECTED" for target in targets):
                try:
                    expected = tuple(ast.literal_eval(node.value))
                except ValueError:
                    return None
    if not has_build:
        return None
    doc = (ast.get_docstring(tree) or "").strip()
    return (doc.splitlines()[0] if doc else ""), expected


def _static_catalogue(module_name: str) -> list[Row] | None:
    """The rows of a catalogue package read from its files, or None when it must be imported."""
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        return None
    folders = list(spec.submodule_search_locations or []) if spec else []
    if not folders:
        return None
    rows = []
    for folder in folders:
        for filename in sorted(os.listdir(folder)):
            if not filename.endswith(".py") or filename.startswith("_"):
                continue
            entry = _static_entry(os.path.join(folder, filename))
            if entry is None:
                return None
            summary, expected = entry
            rows.append((filename[:-3], ", ".join(expected) or "correct", summary))
    return rows


def listing() -> list[Row]:
    """One row per zoo model, over every catalogue registered under "attnscope.zoo", by name."""
    merged: dict[str, Row] = {}
    for point in entry_points(group="attnscope.zoo"):
        rows = _static_catalogue(point.value.partition(":")[0])
        if rows is None:  # not the convention: import every catalogue and ask it
            from ..targets import zoo_entries

            return [(name, ", ".join(getattr(entry, "expected", ())) or "correct", getattr(entry, "summary", ""))
                    for name, entry in zoo_entries().items()]
        merged.update((row[0], row) for row in rows)
    return [merged[name] for name in sorted(merged)]


def run(options: argparse.Namespace) -> int:
    rows = listing()
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table("zoo model", "expected", "summary", box=None, header_style="bold")
        for name, expected, summary in rows:
            table.add_row(name, expected, summary, style="green" if expected == "correct" else None)
        Console(file=sys.stdout).print(table)
        return OK
    # Plain aligned text for pipes and scripts: one line per model, no wrapping.
    name_width = max((len(name) for name, _, _ in rows), default=0)
    expected_width = max((len(expected) for _, expected, _ in rows), default=0)
    for name, expected, summary in rows:
        print(f"{name:<{name_width}}  {expected:<{expected_width}}  {summary}".rstrip())
    return OK


COMMAND = Command("zoo", "list the built-in zoo models (targets zoo:NAME)", add_arguments, run)
