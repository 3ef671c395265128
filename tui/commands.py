"""`attnscope tui` and `attnscope demo`, registered through the "attnscope.commands" entry points.

`tracer` never imports `tui`, so these commands come in from outside; Textual is imported
only when a command runs, keeping `attnscope --help` fast. A terminal UI needs a terminal
both ways: without one to draw on (`attnscope tui T > file`) it would write escape codes
into the file, and without one to read keys from (`echo | attnscope tui T`) it would draw
and ignore every key, or never end. So both commands say so at once, unless `--web` serves
the app in a browser (`tui.web`); `--web` loads the target first, so a bad one fails here in
one line rather than as a page that loads forever.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from tracer.commands.common import LAYOUTS, OK, USAGE, Command, error, trace_target
from tracer.targets import TargetError, isolated

if TYPE_CHECKING:
    from tracer.trace import Trace

WEB_HINT = "; use --web to serve it in a browser"


def stdout_is_terminal() -> bool:
    """A terminal to draw on: a tty, or Textual's web driver (the app served by `--web`)."""
    return sys.stdout.isatty() or "TEXTUAL_DRIVER" in os.environ


def stdin_is_terminal() -> bool:
    """A terminal to read keys from: a tty, or Textual's web driver (keys come from the browser)."""
    return sys.stdin.isatty() or "TEXTUAL_DRIVER" in os.environ


def no_terminal(command: str) -> str | None:
    """Why `attnscope COMMAND` cannot run its app here (no terminal to draw on or to read keys from), or None."""
    if not stdout_is_terminal():
        return f"attnscope {command} needs a terminal, and its standard output is not one"
    if not stdin_is_terminal():
        return f"attnscope {command} needs a terminal to read keys from, and its standard input is not one"
    return None


def _tui_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("target", metavar="TARGET",
                        help="path/to/file.py:NAME, notebook.ipynb[:NAME], dotted.module:NAME, zoo:NAME or a saved .attntrace recording")
    parser.add_argument("--layout", choices=LAYOUTS, default=None,
                        help="how to read the model's float inputs (default: the target's own, else batch-first)")
    parser.add_argument("--device", choices=("cpu", "meta"), default=None,
                        help="move the model and its inputs there before tracing (meta: shapes only, no values)")
    parser.add_argument("--web", action="store_true",
                        help="serve the app in a browser instead of this terminal (needs attnscope[web])")
    parser.add_argument("--port", type=int, default=8000, help="with --web: the port to listen on (default 8000)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="with --web: the address to listen on (default 127.0.0.1, this machine only)")


def open_target(spec: str, layout: str | None, device: str | None) -> Trace:
    with isolated():
        if sys.stderr.isatty():
            from rich.console import Console

            with Console(stderr=True).status(f"tracing {spec}"):
                _, trace = trace_target(spec, layout=layout, device=device)
        else:
            _, trace = trace_target(spec, layout=layout, device=device)
    trace.analysis  # findings and blocks before the app starts: the UI never waits on them
    return trace


def run_tui(options: argparse.Namespace) -> int:
    refused = None if options.web else no_terminal("tui")
    if refused:
        error(refused + WEB_HINT)
        return USAGE
    try:
        trace = open_target(options.target, options.layout, options.device)
    except TargetError as problem:
        error(str(problem))
        return USAGE
    if options.web:  # loaded above, so that a bad target fails here, not in every browser tab
        from .web import serve

        return serve(options)
    from .app import run_app

    run_app(trace, options.target)
    return OK


def _demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="random seed for Q, K, V, gamma and beta (default 0)")
    parser.add_argument("-T", "--length", type=int, default=4, help="number of tokens, 2 to 8 (default 4)")
    parser.add_argument("--d-k", type=int, default=3, help="query/key width, 1 to 8 (default 3)")
    parser.add_argument("--causal", action="store_true", help="start with the causal mask on")


def run_demo(options: argparse.Namespace) -> int:
    refused = no_terminal("demo")
    if refused:
        error(refused)
        return USAGE
    from .app import run_demo as start
    from .demo_math import DemoSettings

    start(DemoSettings().changed(seed=options.seed, length=options.length, d_k=options.d_k, causal=options.causal))
    return OK


TUI = Command("tui", "step through one recorded forward pass in a terminal UI", _tui_arguments, run_tui)
DEMO = Command("demo", "the course's interactive attention and LayerNorm page, in the terminal", _demo_arguments, run_demo)
