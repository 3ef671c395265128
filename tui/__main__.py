"""`python -m tui TARGET [options]`: `attnscope tui`, as the process textual-serve starts per browser tab."""

import sys

from tracer.cli import main

raise SystemExit(main(["tui", *sys.argv[1:]]))
