"""`--format sarif`: one SARIF 2.1.0 log for the whole run, printed when every target is done.

One run, one rule per finding code (help text from docs/checks.md), one result per finding
with its location (the user's line, the module as a logical location) and its related
locations (where the faulty operand was built, then what the mistake caused). File paths are relative to the current
directory (`%SRCROOT%`) where they lie inside it, as code-scanning services expect. A
target that could not be checked is a tool execution notification, located at the user's
line that failed where it is known, and makes the invocation unsuccessful. A place in a
notebook is the .ipynb file, with the cell and line in the message and the properties.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from ..findings import Witness
from .rules import Rule, documented_rules, rule_for

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SRCROOT = "%SRCROOT%"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("attnscope")
    except PackageNotFoundError:
        return "0"


def _artifact(filename: str) -> dict[str, Any]:
    path, here = os.path.abspath(filename), os.getcwd()
    if path.startswith(here + os.sep):
        return {"uri": Path(os.path.relpath(path, here)).as_posix(), "uriBaseId": SRCROOT}
    return {"uri": Path(path).as_uri()}


def _physical(place: dict[str, Any]) -> dict[str, Any]:
    """A place's physical location; a notebook cell's line is no line of the .ipynb file, so
    there the location is the notebook alone (the cell and line are in `_cell_words`)."""
    location: dict[str, Any] = {"artifactLocation": _artifact(place["file"])}
    line = place.get("line", 0)
    if line and line > 0 and not place.get("cell"):
        location["region"] = {"startLine": line}
    return location


def _cell_words(place: dict[str, Any]) -> str:
    """`cell 3, line 8: ` in front of a message about a notebook, else nothing."""
    return f"cell {place['cell']}, line {place.get('line', 0)}: " if place.get("cell") else ""


def _descriptor(rule: Rule) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": "".join(part.capitalize() for part in rule.code.split("-")),
        "defaultConfiguration": {"level": LEVELS.get(rule.level, "warning")},
    }
    if rule.short:
        descriptor["shortDescription"] = {"text": rule.short}
    if rule.text:
        descriptor["fullDescription"] = {"text": rule.text}
        descriptor["help"] = {"text": rule.text, "markdown": rule.markdown or rule.text}
    return descriptor


def _proof(witness: dict[str, Any]) -> str:
    return Witness(**witness).proof


def _result(finding: dict[str, Any], rule_index: int, target: str) -> dict[str, Any]:
    message = _cell_words(finding) + finding["message"] + (f" Hint: {finding['hint']}" if finding.get("hint") else "")
    if finding.get("witness"):
        message += f" Proof: {_proof(finding['witness'])}"
    location: dict[str, Any] = {}
    if finding.get("file"):
        location["physicalLocation"] = _physical(finding)
    if finding.get("module"):
        location["logicalLocations"] = [{"fullyQualifiedName": finding["module"], "kind": "module"}]
    result: dict[str, Any] = {
        "ruleId": finding["code"],
        "ruleIndex": rule_index,
        "level": LEVELS.get(finding["severity"], "warning"),
        "message": {"text": message},
        "locations": [location] if location else [],
        "properties": {"target": target, "count": finding.get("count", 1), "op": finding.get("op", ""),
                       **({"cell": finding["cell"], "line": finding.get("line", 0)} if finding.get("cell") else {})},
    }
    related = [
        {"id": number, "physicalLocation": _physical(place),
         "message": {"text": _cell_words(place) + place["role"] + (f" (in {place['function']})" if place.get("function") else "")}}
        for number, place in enumerate(_notes(finding)) if place.get("file")
    ]
    if related:
        result["relatedLocations"] = related
    return result


def _notes(finding: dict[str, Any]) -> list[dict[str, Any]]:
    """The places a finding's notes point at: where its operand was built, then what it caused
    (each consequence as a place whose role is its code and message)."""
    caused = [{**consequence, "role": f"consequence [{consequence['code']}]: {consequence['message']}", "function": ""}
              for consequence in finding.get("consequences", ())]
    return [*finding.get("related", ()), *caused]


def _notification(result: dict[str, Any]) -> dict[str, Any]:
    """A target that could not be checked, at the user's line that failed where it is known."""
    notification: dict[str, Any] = {
        "level": "error", "message": {"text": result["error"]},
        "properties": {"target": result["target"], "kind": result.get("kind", "target")},
    }
    if result.get("file"):
        notification["locations"] = [{"physicalLocation": _physical(result)}]
    return notification


def sarif_log(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The SARIF log of a run's result objects (what `--format json` would print, in order)."""
    codes = list(documented_rules())
    severity = {}
    for result in results:
        for finding in result.get("findings", ()):
            severity.setdefault(finding["code"], finding["severity"])
            if finding["code"] not in codes:
                codes.append(finding["code"])
    rules = [rule_for(code, severity.get(code, "warning")) for code in codes]
    index = {rule.code: number for number, rule in enumerate(rules)}
    found = [_result(finding, index[finding["code"]], result["target"])
             for result in results for finding in result.get("findings", ())]
    failed = [result for result in results if "error" in result]
    notifications = [_notification(result) for result in failed]
    invocation = {"executionSuccessful": not failed, "toolExecutionNotifications": notifications}
    here = Path(os.getcwd()).as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "attnscope", "version": _version(), "rules": [_descriptor(r) for r in rules]}},
            "invocations": [invocation],
            "originalUriBaseIds": {SRCROOT: {"uri": here}},
            "results": found,
        }],
    }


class Sarif:
    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []

    def show(self, result: dict[str, Any]) -> None:
        if "error" in result:
            print(f"attnscope: error: {result['error']}", file=sys.stderr, flush=True)
        self.results.append(result)

    def finish(self) -> None:
        print(json.dumps(sarif_log(self.results), indent=2), flush=True)
