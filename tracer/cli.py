"""The `attnscope` command line: argparse over the subcommands in `tracer.commands`.

Every subcommand returns its exit status (CONTRACT.md: 0 clean, 1 a finding reached
--fail-on, 2 usage or target error); `main` returns it too, so tests call it in-process.

Only the chosen command's module is imported and given its arguments, and nothing here
imports torch: `--help`, `--version`, `zoo`, `<command> --help` and usage errors answer in
a fraction of a second; a command imports torch when it needs it.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .commands import BUILT_IN, command_names, help_line, load_command
from .commands.common import USAGE, error
from .specs import TargetError

BROKEN_PIPE = 141  # what a shell reports for a process killed by SIGPIPE

EPILOG = """\
TARGET is path/to/file.py:NAME or dotted.module:NAME, NAME being a function that returns
(model, args), (model, args, kwargs) or (model, kwargs_dict), or an nn.Module subclass with
example_inputs(); path/to/notebook.ipynb[:NAME] runs the notebook's code cells first (NAME
defaults to build); or zoo:NAME for a built-in model (`attnscope zoo` lists them).
"""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("attnscope")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


class _Version(argparse.Action):
    """`--version`, read from the installed metadata only when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"attnscope {_version()}")
        parser.exit()


def chosen_command(argv: Sequence[str]) -> str | None:
    """The command named in `argv` (its first word that is not an option), if it is one."""
    first = next((word for word in argv if not word.startswith("-")), None)
    if first in BUILT_IN:  # without reading the installed packages' entry points
        return first
    return first if first in command_names() else None


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `chosen`, only that command's subparser, fully built (its module imported)."""
    parser = argparse.ArgumentParser(
        prog="attnscope",
        description="A debugger for attention and Transformer code: traces a forward pass and flags axis errors.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in [chosen] if chosen else command_names():
        if name != chosen:  # listed in the top-level help only
            subcommands.add_parser(name, help=help_line(name))
            continue
        command = load_command(name)
        sub = subcommands.add_parser(
            name, help=command.help, description=command.help, epilog=EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run `attnscope` with `argv` (default: the process's arguments) and return the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = chosen_command(argv)
    if chosen and not {"-h", "--help"} & set(argv):
        start = load_command(chosen).start
        if start is not None:
            start(argv)
    parser = build_parser(chosen)
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
