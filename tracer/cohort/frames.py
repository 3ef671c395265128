"""A crash's stack as the student needs it: their own frames, not attnscope's.

A submission that segfaults inside its forward pass leaves a stack (faulthandler's dump,
most recent call first) whose outer half is attnscope: the warm parent's loop, the fork,
the child, the tracer. A Python traceback (most recent call last) has the same shape.
Both are cut the same way: every frame whose file lies inside attnscope's packages goes,
and so does everything outside the outermost of them (the launcher that started the warm
parent); one line says how many frames were left out. A stack made only of attnscope's
frames (attnscope's own failure) keeps its innermost one, so it still says where.
faulthandler's closing `Extension modules: numpy._core..., torch._C... (total: 13)` line (the
C extensions loaded, attnscope's own among them: nothing a student can act on) goes too.
"""

from __future__ import annotations

import os
import re

import tracer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(tracer.__file__)))
OWN_ROOTS = tuple(os.path.join(ROOT, package) + os.sep for package in ("tracer", "tui"))
FRAME = re.compile(r'^(?P<indent>\s*)File "(?P<file>[^"]*)", line \d+')
INNERMOST_FIRST = "most recent call first"
EXTENSION_MODULES = "Extension modules: "


def own(file: str) -> bool:
    return os.path.abspath(file).startswith(OWN_ROOTS) if file.startswith(os.sep) else False


def _frames(lines: list[str], start: int) -> tuple[list[list[str]], int]:
    """The frames of the stack beginning at `lines[start]` (each its `File` line and the
    more-indented lines under it), and the index of the first line after the stack."""
    frames: list[list[str]] = []
    index = start
    while index < len(lines) and (found := FRAME.match(lines[index])):
        frame = [lines[index]]
        index += 1
        depth = len(found.group("indent"))
        while index < len(lines) and not FRAME.match(lines[index]) and lines[index].strip() \
                and len(lines[index]) - len(lines[index].lstrip()) > depth:
            frame.append(lines[index])
            index += 1
        frames.append(frame)
    return frames, index


def _file(frame: list[str]) -> str:
    found = FRAME.match(frame[0])
    return found.group("file") if found else ""


def _kept(frames: list[list[str]], innermost_first: bool) -> list[list[str]]:
    """The student's frames of one stack (see the module's docstring), with a line for the others."""
    ordered = frames[::-1] if innermost_first else frames  # outermost first
    mine = [index for index, frame in enumerate(ordered) if own(_file(frame))]
    if not mine:
        return frames
    kept = [frame for index, frame in enumerate(ordered) if index > mine[0] and not own(_file(frame))]
    if not kept:
        kept = [ordered[-1]]
    left_out = len(frames) - len(kept)
    indent = frames[0][0][: len(frames[0][0]) - len(frames[0][0].lstrip())]
    note = [f"{indent}[... {left_out} frame{'s' * (left_out != 1)} of attnscope left out ...]"]
    return [*kept[::-1], note] if innermost_first else [note, *kept]


def student_frames(text: str) -> str:
    """`text` (tracebacks, faulthandler dumps, anything else) with each stack cut to the student's frames."""
    lines: list[str] = []
    for line in text.split("\n"):
        if line.startswith(EXTENSION_MODULES):
            if lines and not lines[-1].strip():  # and the blank line faulthandler puts before it
                lines.pop()
            continue
        lines.append(line)
    cut: list[str] = []
    index = 0
    while index < len(lines):
        if not FRAME.match(lines[index]):
            cut.append(lines[index])
            index += 1
            continue
        innermost_first = bool(cut) and INNERMOST_FIRST in cut[-1]
        frames, index = _frames(lines, index)
        cut.extend(line for frame in _kept(frames, innermost_first) for line in frame)
    return "\n".join(cut)
