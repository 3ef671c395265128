"""The user's source is parsed once per version of the file: a check asks again on every run, and
an edited file (a notebook's module, a test session) is read afresh."""

from __future__ import annotations

import os

from tracer.evidence.provenance import _registration_lines
from tracer.evidence.sourcefile import parsed


def test_parsed_once_while_unchanged_and_again_when_edited(tmp_path) -> None:
    path = tmp_path / "model.py"
    path.write_text("class Net:\n    def __init__(self):\n        self.norm = 1\n")
    first = parsed(str(path))
    assert first is not None and [c.lineno for c in first.classes["Net"]] == [1]
    assert parsed(str(path)) is first
    assert _registration_lines(str(path), "Net", "norm") == (3,)

    path.write_text("\n\nclass Net:\n    def __init__(self):\n        x = 2\n        self.norm = x\n")
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a new version even within the clock's tick
    again = parsed(str(path))
    assert again is not first and [c.lineno for c in again.classes["Net"]] == [3]
    assert _registration_lines(str(path), "Net", "norm") == (6, 5)


def test_unreadable_or_broken_source_is_none(tmp_path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    assert parsed(str(broken)) is None
    assert parsed(str(tmp_path / "absent.py")) is None
