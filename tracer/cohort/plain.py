"""Student text made plain before it reaches a terminal, a results file or a report.

A submission's output, and any message made from its exceptions, may hold terminal
control sequences: colours, but also a screen clear, a cursor move that overwrites
attnscope's own lines, a window title or a hyperlink (OSC), or a carriage return that
hides what came before it. All of them are removed; tabs and newlines stay.
"""

from __future__ import annotations

import re
from typing import Any

CONTROLS = re.compile(
    r"""
      (?:\x1b\[|\x9b) [0-?]* [ -/]* [@-~]                  # CSI: colours, cursor moves, erasing
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)?
                                                           # OSC, DCS, SOS, PM, APC: up to BEL or ST
    | \x1b [ -/]* [0-~]                                    # other escapes (ESC c, ESC 7, charsets)
    | [\x00-\x08\x0b-\x1f\x7f-\x9f]                        # other control characters, ESC alone
    """,
    re.VERBOSE,
)


def plain(text: str) -> str:
    """`text` without terminal control sequences and control characters (tab and newline kept)."""
    return CONTROLS.sub("", text)


def plain_strings(value: Any) -> Any:
    """`value` (a result object: dicts, lists, strings) with every string made `plain`."""
    if isinstance(value, str):
        return plain(value)
    if isinstance(value, dict):
        return {name: plain_strings(item) for name, item in value.items()}
    if isinstance(value, list):
        return [plain_strings(item) for item in value]
    return value
