"""The subcommands of `attnscope`, one module each; a new command is one module and one line here.

Modules are imported only when their command runs or shows its help, so `attnscope --help`
lists the built-in commands from `BUILT_IN` alone. Packages that `tracer` must not import
(the Textual app in `tui`) add their commands through the entry-point group
"attnscope.commands", each entry a `Command`; they are loaded for the top-level help and
when chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from .common import Command

GROUP = "attnscope.commands"


@dataclass(frozen=True)
class BuiltIn:
    """Where a built-in command lives, and the line `attnscope --help` shows for it."""

    module: str
    help: str


BUILT_IN: dict[str, BuiltIn] = {
    "check": BuiltIn("check", "trace one forward pass per target and report its findings"),
    "render": BuiltIn("render", "draw one forward pass as a Graphviz diagram, axis errors in red"),
    "report": BuiltIn("report", "summarize a results file of `check --results`: counts per code, one row per submission"),
    "run": BuiltIn("run", "run a Python script with tracing on and report the findings of its forward passes"),
    "stats": BuiltIn("stats", "count the ops, modules and attention-score memory of one forward pass"),
    "zoo": BuiltIn("zoo", "list the built-in zoo models (targets zoo:NAME)"),
}


def command_names() -> list[str]:
    """Every command's name, built-in first, without importing any command module."""
    from importlib.metadata import entry_points

    extra = sorted(point.name for point in entry_points(group=GROUP) if point.name not in BUILT_IN)
    return [*BUILT_IN, *extra]


def load_command(name: str) -> Command:
    """The `Command` called `name`: its built-in module imported, or its entry point loaded."""
    if name in BUILT_IN:
        return import_module(f"{__name__}.{BUILT_IN[name].module}").COMMAND
    from importlib.metadata import entry_points

    (point,) = [point for point in entry_points(group=GROUP) if point.name == name]
    return point.load()


def help_line(name: str) -> str:
    """The one line `attnscope --help` shows for `name` (loads an entry point's command)."""
    return BUILT_IN[name].help if name in BUILT_IN else load_command(name).help


def all_commands() -> tuple[Command, ...]:
    """Every command, loaded: built-in ones, then those registered by other installed packages."""
    return tuple(load_command(name) for name in command_names())


__all__ = ["BUILT_IN", "Command", "all_commands", "command_names", "help_line", "load_command"]
