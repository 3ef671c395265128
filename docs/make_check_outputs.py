"""Refresh the outputs shown in docs/checks.md: every "`.venv/bin/attnscope check zoo:NAME`
prints (exit status N):" paragraph is followed by a code block holding exactly what that
command prints. Run from the repository root after a message, hint or note changed:

    .venv/bin/python docs/make_check_outputs.py           # rewrite docs/checks.md
    .venv/bin/python docs/make_check_outputs.py --check   # exit 1 if the page is out of date
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "checks.md"
COMMAND = re.compile(r"`\.venv/bin/attnscope check (zoo:\w+)` prints \(exit status (\d)\):\n\n```\n(.*?)```",
                     re.DOTALL)


def output_of(target: str) -> tuple[str, int]:
    """What `attnscope check TARGET` prints on a wide, plain terminal, and its exit status."""
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from tracer.cli import main; sys.exit(main())", "check", target],
        cwd=ROOT, capture_output=True, text=True,
        env={"COLUMNS": "400", "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    return done.stdout, done.returncode


def refreshed(page: str) -> str:
    def replace(match: re.Match) -> str:
        target = match.group(1)
        text, status = output_of(target)
        return f"`.venv/bin/attnscope check {target}` prints (exit status {status}):\n\n```\n{text}```"

    return COMMAND.sub(replace, page)


def main(argv: list[str]) -> int:
    page = PAGE.read_text()
    new = refreshed(page)
    if "--check" in argv:
        if new != page:
            print("docs/checks.md is out of date: run .venv/bin/python docs/make_check_outputs.py", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
