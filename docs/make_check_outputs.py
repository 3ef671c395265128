"""Refresh the outputs shown in docs/checks.md: every "`.venv/bin/attnscope check zoo:NAME`
prints (exit status N):" paragraph is followed by a code block holding exactly what that
command prints. Run from the repository root after a message, hint or note changed:

    .venv/bin/python docs/make_check_outputs.py           # rewrite docs/checks.md
    .venv/bin/python docs/make_check_outputs.py --check   # exit 1 if the page is out of date
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # run as a script from anywhere: `tracer` and `models` live at the root
PAGE = ROOT / "docs" / "checks.md"
COMMAND = re.compile(r"`\.venv/bin/attnscope check (zoo:\w+)` prints \(exit status (\d)\):\n\n```\n(.*?)```",
                     re.DOTALL)


def output_of(target: str) -> tuple[str, int]:
    """What `attnscope check TARGET` prints (its text format, on a plain wide terminal) and its exit status."""
    from rich.console import Console

    from tracer.commands.common import trace_target
    from tracer.formats.text import print_report
    from tracer.targets import isolated

    with isolated():
        report, _ = trace_target(target)
    page = io.StringIO()
    print_report(Console(file=page, soft_wrap=True, highlight=False, color_system=None, width=400), report)
    return page.getvalue(), 1 if report.fails("error") else 0


def refreshed(page: str) -> str:
    def replace(match: re.Match) -> str:
        target = match.group(1)
        text, status = output_of(target)
        return f"`.venv/bin/attnscope check {target}` prints (exit status {status}):\n\n```\n{text}```"

    return COMMAND.sub(replace, page)


def main(argv: list[str]) -> int:
    os.chdir(ROOT)  # file names in the output are shown relative to the repository root
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
