"""`attnscope zoo`: list the built-in models, with the finding codes each must trigger."""

from __future__ import annotations

import argparse
import sys

from rich.console import Console
from rich.table import Table

from ..targets import zoo_entries
from .common import OK, Command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No options: the listing is short enough to read or grep."""


def run(options: argparse.Namespace) -> int:
    rows = [
        (name, ", ".join(getattr(entry, "expected", ())) or "correct", getattr(entry, "summary", ""))
        for name, entry in zoo_entries().items()
    ]
    if sys.stdout.isatty():
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
