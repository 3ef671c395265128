"""`--format github`: GitHub Actions workflow commands, so findings annotate the pull request.

    ::error file=subs/bob.py,line=12,title=attnscope softmax-axis::softmax normalizes over ...

Severities map to `error`, `warning` and `notice`; a target that could not be checked is an
`error` at the user's line that failed where it is known (a syntax error), else without a
file. In a notebook the annotation names the .ipynb file and says the cell and line in words. Values are escaped as the Actions runner expects (`%`, CR, LF, and
in properties also `:` and `,`).
"""

from __future__ import annotations

import sys
from typing import Any

from ..findings import Witness

LEVELS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **properties: Any) -> str:
    given = ",".join(f"{name}={escape_property(str(value))}" for name, value in properties.items() if value)
    return f"::{level}{' ' + given if given else ''}::{escape_data(message)}"


def _place(item: dict[str, Any], message: str) -> tuple[dict[str, Any], str]:
    """The `file`/`line` properties of a place, and the message: a notebook's line within a
    cell is no line of the .ipynb file, so the cell and line go in front of the message."""
    from .text import shown_path

    if not item.get("file"):
        return {}, message
    if item.get("cell"):
        return {"file": shown_path(item["file"])}, f"cell {item['cell']}, line {item.get('line', 0)}: {message}"
    return {"file": shown_path(item["file"]), "line": item.get("line") or ""}, message


def lines_of(result: dict[str, Any]) -> list[str]:
    """The workflow commands for one target's object; a failed one at its user line where known."""
    if "error" in result:
        where, _ = _place(result, "")  # the error's own text says where in a notebook
        return [command("error", result["error"], **where, title=f"attnscope {result.get('kind', 'target')}")]
    lines = []
    for finding in result.get("findings", ()):
        message = finding["message"] + (f" (hint: {finding['hint']})" if finding.get("hint") else "")
        if finding.get("witness"):
            message += f" (proof: {Witness(**finding['witness']).proof})"
        for consequence in finding.get("consequences", ()):
            message += f" (consequence [{consequence['code']}] at line {consequence.get('line', 0)}: " \
                       f"{consequence['message']})"
        where, message = _place(finding, message)
        lines.append(command(LEVELS.get(finding["severity"], "notice"), message, **where,
                             title=f"attnscope {finding['code']}"))
    return lines


class Github:
    def show(self, result: dict[str, Any]) -> None:
        if "error" in result:
            print(f"attnscope: error: {result['error']}", file=sys.stderr, flush=True)
        for line in lines_of(result):
            print(line, flush=True)

    def finish(self) -> None:
        pass
