"""`attnscope tui TARGET --web`: the same debugger in a browser, served by textual-serve.

textual-serve runs one app process per browser tab and relays its screen over a websocket.
Each process is `python -m tui TARGET` with the same options, so the browser shows exactly
what the terminal would. The server listens on 127.0.0.1 unless told otherwise: a recording
shows the model's source code, so exposing it is the user's explicit choice (`--host`).
"""

from __future__ import annotations

import argparse
import shlex
import sys

from tracer.commands.common import OK, USAGE, error

MISSING = "attnscope tui --web needs textual-serve: pip install 'attnscope[web]'"


def app_command(options: argparse.Namespace) -> str:
    """The shell command textual-serve runs for every browser tab."""
    words = [sys.executable, "-m", "tui", options.target]
    if options.layout:
        words += ["--layout", options.layout]
    if options.device:
        words += ["--device", options.device]
    return shlex.join(words)


def serve(options: argparse.Namespace) -> int:
    """Serve the app until interrupted (Ctrl+C or SIGTERM); a one-line error for a bad port or a missing extra."""
    try:
        from textual_serve.server import Server
    except ImportError:
        error(MISSING)
        return USAGE
    if not 0 < options.port < 65536:
        error(f"--port must be between 1 and 65535, not {options.port}")
        return USAGE
    server = Server(app_command(options), host=options.host, port=options.port, title=f"attnscope {options.target}")
    try:
        server.serve()
    except OSError as problem:  # the port is taken, or the address is not this machine's
        error(f"cannot serve on {options.host}:{options.port}: {problem.strerror or problem}")
        return USAGE
    return OK
