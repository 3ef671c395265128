"""The `attnscope` command line: argparse over the subcommands in `tracer.commands`.

Every subcommand returns its exit status (CONTRACT.md: 0 clean, 1 a finding reached
--fail-on, 2 usage or target error); `main` returns it too, so tests call it in-process.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from typing import Sequence

from .commands import all_commands
from .commands.common import USAGE, error
from .targets import TargetError

BROKEN_PIPE = 141  # what a shell reports for a process killed by SIGPIPE

EPILOG = """\
TARGET is path/to/file.py:NAME or dotted.module:NAME, NAME being a function that returns
(model, args), (model, args, kwargs) or (model, kwargs_dict), or an nn.Module subclass with
example_inputs(); or zoo:NAME for a built-in model (`attnscope zoo` lists them).
"""


def _version() -> str:
    try:
        return version("attnscope")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="attnscope",
        description="A debugger for attention and Transformer code: traces a forward pass and flags axis errors.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"attnscope {_version()}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in all_commands():
        sub = subcommands.add_parser(
            command.name, help=command.help, description=command.help, epilog=EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run `attnscope` with `argv` (default: the process's arguments) and return the exit status."""
    parser = build_parser()
    try:
        options = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version (0) and usage errors (2), already printed
        return int(done.code or 0)
    try:
        return options.run(options)
    except TargetError as problem:
        error(str(problem))
        return USAGE
    except BrokenPipeError:  # `attnscope zoo | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
