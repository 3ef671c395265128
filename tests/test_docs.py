"""Docs that run: every shell command marked in README.md and docs/*.md is executed.

The convention: an HTML comment `<!-- run -->` on the line before a fenced block of
`bash`, `sh` or `console` marks it to run. In a `bash` block each line that is not blank
or a comment is one command, and `exit N` in its trailing comment asserts its exit status;
in a `console` block each line starting with `$ ` is one,
and `$ echo $?` followed by a number asserts the previous command's exit status. Without
one, a command must exit 0 or 1 (1: `check` found an error, as documented). No command may
print a traceback, unless the document shows one under it (`run` shows the script's own).

In a `console` block, the output shown under a command must be what it prints (standard
output and error together, as a terminal shows them): line by line, where `...` inside a
line stands for any text and a line of `...` alone for any number of lines, so a page may
shorten what it shows but never show what the tool no longer prints (`.../file.py` is the
file in any folder). A command shown
without output is not compared; progress lines (`[3/5] target: verdict`, a bar on a
terminal, which leaves no trace) are left out of what is compared, and a file inside the
repository is named as from its root, where the page's reader runs the command.

A document's blocks run in order in one scratch folder whose entries link to the
repository's (so `tests/fixtures/...` and `zoo:` targets resolve, and files a command
writes stay in the scratch folder), with the virtualenv's `attnscope` first on PATH.
Unmarked blocks are those that cannot run here: interactive (`tui`, `demo`), the setup
commands CI runs itself, placeholders, or clusters.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARK = "<!-- run -->"
FENCE = re.compile(r"^```(\w*)\s*$")
SHELLS = ("bash", "sh", "console")
TIMEOUT = 600


@dataclass(frozen=True)
class Command:
    text: str
    line: int  # in the document, for the failure message
    status: int | None = None  # the exit status `$ echo $?` asserts, if any
    shown: str = ""  # the output the document shows under it (console blocks)


def marked_commands(path: Path) -> list[Command]:
    """The commands of every marked shell block of `path`, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    marked, language, inside = False, "", False
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line.strip())
        if fence and not inside:
            inside, language = True, fence.group(1)
            run, marked = marked and language in SHELLS, False
            continue
        if fence and inside:
            inside = False
            continue
        if not inside:
            marked = line.strip() == MARK or (marked and not line.strip())
            continue
        if not run:
            continue
        text = line.strip()
        if language == "console":
            if text == "$ echo $?":
                continue
            previous = lines[number - 2].strip() if number >= 2 else ""
            if previous == "$ echo $?" and text.isdigit() and commands:
                last = commands[-1]
                commands[-1] = Command(last.text, last.line, int(text), last.shown)
            elif text.startswith("$ "):
                commands.append(Command(text[2:], number))
            elif commands:
                last = commands[-1]
                commands[-1] = Command(last.text, last.line, last.status, f"{last.shown}{line}\n")
        elif text and not text.startswith("#"):
            said = re.search(r"#.*\bexit (\d+)\b", text)
            commands.append(Command(text, number, int(said.group(1)) if said else None))
    return commands


PROGRESS = re.compile(r"^\[\d+/\d+\] ")
ANY_LINES = "..."


def shown_pattern(shown: str) -> re.Pattern[str]:
    """The output a document shows as a pattern: `...` in a line is any text, a line of `...` any lines."""
    parts = []
    for line in shown.rstrip("\n").split("\n"):
        if line.strip() == ANY_LINES:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = line.rstrip().split(ANY_LINES)
            pattern = re.escape(pieces[0])
            for piece in pieces[1:]:  # `.../file.py`: the file in any folder, or as named from the root
                pattern += r"(?:.*?/)?" + re.escape(piece[1:]) if piece.startswith("/") else ".*?" + re.escape(piece)
            parts.append(pattern + r"\n")
    return re.compile("".join(parts))


def printed(output: str) -> str:
    """What a command printed, as compared: trailing spaces and blank lines and progress lines left out."""
    lines = [line.rstrip() for line in output.split("\n") if not PROGRESS.match(line)]
    return "\n".join(lines).rstrip("\n") + "\n"


def shows(shown: str, output: str) -> bool:
    """Whether `output` is what the document shows as `shown`."""
    return shown_pattern(shown).fullmatch(printed(output)) is not None


def documents() -> list[Path]:
    return [path for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))] if marked_commands(path)]


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    for entry in ROOT.iterdir():
        if not entry.name.startswith(".") and entry.name not in ("__pycache__",):
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def test_shown_output_is_matched_line_by_line_with_ellipses() -> None:
    shown = "a.py:3: error[x]: the scores ...\n...\na.py: 1 error ...\n"
    assert shows(shown, "a.py:3: error[x]: the scores are wrong\n 3 | code\n   | ^~~\n\na.py: 1 error (5 ops)\n")
    assert shows(shown, "[1/2] progress\na.py:3: error[x]: the scores are wrong\na.py: 1 error (5 ops)\n\n")
    assert not shows(shown, "a.py:3: error[x]: the scores\nnote: something new\n")  # the summary line is gone
    assert not shows("x: note: one\nx: no findings\n", "x: note: one\nx: note: two\nx: no findings\n")
    assert shows('"file": ".../subs/erin.py"\n', '"file": "subs/erin.py"\n')
    assert shows('"file": ".../subs/erin.py"\n', '"file": "/home/ta/attnscope/subs/erin.py"\n')
    assert not shows('"file": ".../subs/erin.py"\n', '"file": "/home/ta/attnscope/subs/bob.py"\n')


def test_the_marker_finds_the_readmes_commands() -> None:
    commands = marked_commands(ROOT / "README.md")
    assert len(commands) >= 8
    assert any(command.text.startswith("attnscope run --save") for command in commands)


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(ROOT)))
def test_the_documented_commands_run(document: Path, scratch: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "COLUMNS": "120", "PYTHONUNBUFFERED": "1"}  # unbuffered: a terminal's order
    env.pop("PYTEST_XDIST_WORKER", None)
    for command in marked_commands(document):
        done = subprocess.run(["bash", "-c", command.text], cwd=scratch, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        where = f"{document.relative_to(ROOT)}:{command.line}: `{command.text}` exited {done.returncode}"
        allowed = (command.status,) if command.status is not None else (0, 1)
        assert done.returncode in allowed, f"{where} (expected {allowed})\n{done.stdout[-3000:]}"
        shown_traceback = "Traceback (most recent call last)" in command.shown
        assert "Traceback (most recent call last)" not in done.stdout or shown_traceback, \
            f"{where} with a traceback\n{done.stdout[-3000:]}"
        # the scratch folder's entries are links: a file they lead to is named from the repository,
        # where the page's reader runs the command
        output = done.stdout.replace(f"{ROOT}{os.sep}", "")
        if command.shown.strip() and not shows(command.shown, output):
            pytest.fail(f"{where}: the page shows\n{command.shown}\nbut it printed\n{printed(output)}", pytrace=False)
