"""The finding codes as rules, with their help text read from docs/checks.md.

docs/checks.md has one section per code, `## code [severity]`, opening with "**What it
means.**" and "**How attnscope detects it.**" paragraphs and then the wrong and fixed
snippets. A SARIF rule takes the first sentence as its short description, those two
paragraphs as its help text and the section up to its example output as its Markdown
help. Where the docs are not installed beside the package, a rule has its code and level.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CHECKS_DOC = Path(__file__).resolve().parents[2] / "docs" / "checks.md"
SECTION = re.compile(r"^## ([a-z][a-z-]*) \[(error|warning|info)\]\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Rule:
    code: str
    level: str
    short: str = ""
    text: str = ""
    markdown: str = ""


def _paragraphs(body: str) -> list[str]:
    return [" ".join(part.split()) for part in re.split(r"\n\s*\n", body) if part.strip()]


def _rule(code: str, level: str, body: str) -> Rule:
    prose = [part for part in _paragraphs(body) if part.startswith("**")]
    text = "\n\n".join(part.replace("**", "") for part in prose[:2])
    first = prose[0].replace("**What it means.**", "").strip() if prose else ""
    short = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0]
    example = body.find("` prints")
    markdown = (body[: body.rfind("\n", 0, example)] if example > 0 else body).strip()
    return Rule(code, level, short, text, markdown)


@cache
def documented_rules(path: Path = CHECKS_DOC) -> dict[str, Rule]:
    """Every code documented in docs/checks.md, in its order; empty when the file is absent."""
    try:
        document = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    found = list(SECTION.finditer(document))
    rules = {}
    for position, match in enumerate(found):
        end = found[position + 1].start() if position + 1 < len(found) else len(document)
        body = document[match.end():end]
        body = body.split("\n## ", 1)[0]  # a following non-code section ("Known limits")
        rules[match.group(1)] = _rule(match.group(1), match.group(2), body)
    return rules


def rule_for(code: str, severity: str) -> Rule:
    """The documented rule of `code`, or a bare one for a code the docs do not (yet) have."""
    return documented_rules().get(code) or Rule(code, severity)
