"""The subcommands of `attnscope`, one module each; a new command is one module and one line here."""

from __future__ import annotations

from . import check, stats, zoo
from .common import Command

COMMANDS: tuple[Command, ...] = (check.COMMAND, stats.COMMAND, zoo.COMMAND)

__all__ = ["COMMANDS", "Command"]
