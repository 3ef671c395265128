"""The subcommands of `attnscope`, one module each; a new command is one module and one line here.

Packages that `tracer` must not import (the Textual app in `tui`) add their commands
through the entry-point group "attnscope.commands", each entry a `Command`.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from . import check, render, run, stats, zoo
from .common import Command

BUILT_IN: tuple[Command, ...] = (check.COMMAND, render.COMMAND, run.COMMAND, stats.COMMAND, zoo.COMMAND)


def all_commands() -> tuple[Command, ...]:
    """Built-in commands, then those registered by other installed packages, by name."""
    extra = [entry.load() for entry in entry_points(group="attnscope.commands")]
    return BUILT_IN + tuple(sorted(extra, key=lambda command: command.name))


__all__ = ["BUILT_IN", "Command", "all_commands"]
