"""docs/graph.md runs as written: its `pycon` blocks are one doctest session, in page order."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "graph.md"
BLOCK = re.compile(r"```pycon\n(.*?)```", re.DOTALL)


def test_graph_page_examples_run_and_print_what_the_page_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PAGE.parents[1])
    blocks = BLOCK.findall(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    parser = doctest.DocTestParser()
    session = parser.get_doctest("\n".join(blocks), {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    runner.run(session, out=failures.append)
    assert runner.failures == 0, "".join(failures)
    assert runner.tries == len(session.examples) > 20
