"""How one child's end becomes the one JSON object its target gets.

A child that wrote a result is judged by it (a report, or a target error it classified);
one that did not is judged by how it ended: killed at its timeout, killed by a signal
(a segfault, an abort, the machine's OOM killer), or exited on its own (`os._exit`). The
target's captured output joins the object as `output`, cut to its head and tail, with
`output_lines`, the number of lines it printed in all; a fatal error's stack (faulthandler's,
written to a file of its own) follows it, cut to the student's frames. Every string of the
object is made plain (no terminal control sequences) before anyone shows it.
"""

from __future__ import annotations

import json
import signal
from typing import Any

from .frames import student_frames
from .plain import plain_strings

OUTPUT_HEAD = 2000  # bytes of a target's output kept from its start...
OUTPUT_TAIL = 2000  # ...and from its end; what lies between is counted, not kept


class Output:
    """A child's captured stdout and stderr, bounded: its head, its tail, how much was cut,
    and how many lines it had in all (a last line without its newline counts)."""

    def __init__(self) -> None:
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0
        self.newlines = 0
        self.ends_open = False  # the last byte so far is not a newline

    @property
    def lines(self) -> int:
        return self.newlines + self.ends_open

    def add(self, data: bytes) -> None:
        if not data:
            return
        self.total += len(data)
        self.newlines += data.count(b"\n")
        self.ends_open = not data.endswith(b"\n")
        room = OUTPUT_HEAD - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            del self.tail[:-OUTPUT_TAIL]

    def text(self) -> str:
        cut = self.total - len(self.head) - len(self.tail)
        head = self.head.decode(errors="replace")
        tail = self.tail.decode(errors="replace")
        if cut <= 0:
            return head + tail
        return f"{head}\n[... {cut} bytes of output left out ...]\n{tail}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def ended_without_result(target: str, status: int, timed_out: bool, timeout: float) -> dict[str, Any]:
    """The object of a child that wrote no result; `status` as `os.waitpid` reports it."""
    if timed_out:
        return {"target": target, "error": f"{target}: did not finish within {timeout:g} s; killed (--timeout)",
                "kind": "timeout"}
    if signal_number := (status & 0x7F):
        name = _signal_name(signal_number)
        cause = {
            "SIGSEGV": "a segmentation fault", "SIGBUS": "a bus error", "SIGABRT": "an abort",
            "SIGFPE": "a floating-point exception", "SIGILL": "an illegal instruction",
            "SIGKILL": "SIGKILL (perhaps the machine's out-of-memory killer)",
        }.get(name, name)
        return {"target": target, "error": f"{target}: the process crashed: killed by {cause}",
                "kind": "crashed", "signal": name}
    code = (status >> 8) & 0xFF
    return {"target": target, "error": f"{target}: the process exited with status {code} before its check finished "
                                       "(sys.exit or os._exit in the target's code)", "kind": "exit", "status": code}


def outcome(target: str, result: bytes, status: int, timed_out: bool, timeout: float, output: Output,
            crash: bytes = b"") -> dict[str, Any]:
    """The one object for a finished child: its own result if it wrote one, else how it ended.

    `crash` is what faulthandler wrote on a fatal error (a segfault, an abort), if anything.
    """
    judged: dict[str, Any] | None = None
    if result and not timed_out:
        try:
            judged = json.loads(result)
        except ValueError:
            judged = None
        if not isinstance(judged, dict) or judged.get("target") != target:
            judged = {"target": target, "error": f"{target}: the check's result was damaged (the target's code "
                                                 "wrote to attnscope's result pipe?)", "kind": "crashed"}
    if judged is None:
        judged = ended_without_result(target, status, timed_out, timeout)
    stack = student_frames(crash.decode(errors="replace")) if crash else ""
    if output.total or stack:
        printed = output.text()
        between = "\n" if printed and stack and not printed.endswith("\n") else ""
        judged["output"] = printed + between + stack
        judged["output_lines"] = output.lines + line_count(stack)
    return {**plain_strings(judged), "target": target}


def line_count(text: str) -> int:
    """Lines of `text`, a last one without its newline included."""
    return text.count("\n") + (bool(text) and not text.endswith("\n"))
