"""Notebook targets (`homework.ipynb[:NAME]`): code cells in order, IPython lines skipped,
findings at a cell and a line, for check, stats, render, run and cohorts (CONTRACT.md "Targets")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tracer.cli import main
from tracer.notebook import read
from tracer.specs import expand, parse

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "homework.ipynb"
BUG_LINE = "        weights = torch.softmax(scores, dim=-2)  # BUG: softmax-axis"


@pytest.fixture
def homework(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return Path(shutil.copy(FIXTURE, tmp_path / "hw.ipynb"))


def write(path: Path, *cells: str) -> Path:
    nbformat.write(new_notebook(cells=[new_markdown_cell("# notes"), *map(new_code_cell, cells)]), path)
    return path


def test_a_notebook_is_a_target_with_or_without_a_name() -> None:
    assert parse("hw.ipynb:build") == parse("hw.ipynb:build").__class__("hw.ipynb:build", "notebook", "hw.ipynb", "build")
    assert (parse("hw.ipynb").kind, parse("hw.ipynb").name) == ("notebook", "build")


def test_ipython_lines_and_cell_magics_are_skipped_with_one_note(tmp_path: Path) -> None:
    path = write(tmp_path / "magic.ipynb", "!pip install torch\nif True:\n    %time x = 1\ny = 2", "%%bash\necho hi")
    notebook = read(str(path))
    first, second = notebook.cells
    assert (first.number, second.number) == (2, 3)  # among all cells, the markdown one included
    assert first.source.splitlines() == ["pass", "if True:", "    pass", "y = 2"]  # every line keeps its number
    assert not second.source.strip()
    namespace: dict = {}
    notebook.run(namespace)
    assert namespace["y"] == 2
    note = notebook.note()
    assert note.startswith("skipped 3 IPython lines of magic.ipynb:") and "`%%bash` (cell 3)" in note


def test_check_reports_the_cell_and_the_line_within_it(homework: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "hw.ipynb:build", "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    (finding,) = [f for f in result["findings"] if f["code"] == "softmax-axis"]
    assert (finding["file"], finding["cell"], finding["line"]) == (str(homework), 3, 8)
    cell = nbformat.read(homework, as_version=4).cells[2].source.splitlines()
    assert cell[7] == BUG_LINE
    assert any(note.startswith("skipped 3 IPython lines") for note in result["notes"])


def test_text_output_names_the_cell_and_shows_its_line(homework: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "hw.ipynb"]) == 1
    out = capsys.readouterr().out
    assert "hw.ipynb:cell 3:8: error[softmax-axis]" in out
    assert f" 8 | {BUG_LINE}" in out


def test_sarif_and_github_name_the_notebook(homework: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "hw.ipynb", "--format", "github"]) == 1
    line = next(line for line in capsys.readouterr().out.splitlines() if "softmax-axis" in line)
    assert line.startswith("::error file=hw.ipynb,title=attnscope softmax-axis::cell 3, line 8: softmax normalizes")
    assert main(["check", "hw.ipynb", "--format", "sarif"]) == 1
    (result,) = [r for r in json.loads(capsys.readouterr().out)["runs"][0]["results"] if r["ruleId"] == "softmax-axis"]
    assert result["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": "hw.ipynb", "uriBaseId": "%SRCROOT%"}}
    assert result["message"]["text"].startswith("cell 3, line 8: ") and result["properties"]["cell"] == 3


def test_stats_and_render_take_a_notebook(homework: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "hw.ipynb", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attention_blocks"] == 1
    assert main(["render", "hw.ipynb:build", "-o", "hw.dot"]) == 0
    assert Path("hw.dot").read_text().startswith("digraph")


def test_a_pattern_of_notebooks_is_one_target_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("subs").mkdir()
    for name in ("b", "a"):
        write(tmp_path / "subs" / f"{name}.ipynb", "x = 1")
    assert expand(["subs/*.ipynb", "subs/*.ipynb:make"]) == [
        "subs/a.ipynb", "subs/b.ipynb", "subs/a.ipynb:make", "subs/b.ipynb:make"]


def test_a_failing_cell_is_named_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "boom.ipynb", "import torch", "y = 1\nraise ValueError('boom')")
    Path("broken.ipynb").write_text('{"cells": [')
    assert main(["check", "boom.ipynb", "broken.ipynb", "--json"]) == 2
    boom, broken = map(json.loads, capsys.readouterr().out.splitlines())
    assert boom["error"] == "boom.ipynb: running boom.ipynb in cell 3, line 2 raised ValueError: boom"
    assert broken["error"].startswith("broken.ipynb: broken.ipynb is not a Jupyter notebook (")


def test_run_executes_the_cells_and_traces_their_forward_passes(homework: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--json", "hw.ipynb"]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    (finding,) = [f for f in report["findings"] if f["code"] == "softmax-axis"]
    assert (finding["cell"], finding["line"]) == (3, 8)


def test_run_shows_a_cells_traceback_with_its_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "boom.ipynb", "y = 1\nraise ValueError('boom')")
    assert main(["run", "boom.ipynb"]) == 1
    err = capsys.readouterr().err
    assert 'boom.ipynb:cell 2", line 2, in <module>\n    raise ValueError(\'boom\')' in err
    Path("broken.ipynb").write_text("not json")
    assert main(["run", "broken.ipynb"]) == 2
    assert capsys.readouterr().err.strip().startswith("attnscope: error: broken.ipynb is not a Jupyter notebook (")
