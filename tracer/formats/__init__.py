"""How `attnscope check` shows its results: one module per `--format`.

Every format reads the plain result objects (what `--format json` prints: a report's
`to_dict()`, or `{"target", "error", "kind"}`), never live traces, so the same code shows
results made in a child process, on a Dask worker or read back from a results file.
"""

from __future__ import annotations

from typing import Any, Protocol

FORMATS = ("text", "json", "sarif", "github")


class Presenter(Protocol):
    """Receives each target's object in target order, then `finish` once."""

    def show(self, result: dict[str, Any]) -> None: ...

    def finish(self) -> None: ...


def presenter(name: str) -> Presenter:
    """The presenter of `--format name`."""
    if name == "json":
        from .json_lines import JsonLines

        return JsonLines()
    if name == "sarif":
        from .sarif import Sarif

        return Sarif()
    if name == "github":
        from .github import Github

        return Github()
    from .text import Text

    return Text()

