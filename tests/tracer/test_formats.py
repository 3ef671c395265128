"""`check --format sarif|github` and `attnscope report`: CI-native output and the cohort view.

The SARIF log is validated against the official SARIF 2.1.0 JSON schema (OASIS, errata 01),
shipped as tests/fixtures/sarif-schema-2.1.0.json.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tracer.cli import main
from tracer.formats.github import lines_of
from tracer.formats.rules import documented_rules
from tracer.formats.sarif import sarif_log

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "sarif-schema-2.1.0.json").read_text())

BUGGY = """
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1)
        return torch.softmax(scores, dim=-2) @ self.v(x)


def build():
    return Attention().eval(), torch.randn(2, 5, 8)
"""


def validate(log: dict[str, Any]) -> None:
    jsonschema.Draft4Validator(SCHEMA).validate(log)


@pytest.fixture
def cohort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "buggy.py").write_text(textwrap.dedent(BUGGY))
    (tmp_path / "broken.py").write_text("def build(:\n")
    return ["buggy.py:build", "broken.py:build", "zoo:ref_encoder_decoder"]


def related_result(tmp_path: Path) -> dict[str, Any]:
    """A result whose finding carries related locations (where the faulty mask was built)."""
    source = tmp_path / "masked.py"
    source.write_text("mask = build_mask()\nscores = scores.masked_fill(mask, 0.0)\n")
    finding = {
        "code": "mask-value", "severity": "error", "message": "masked scores are filled with 0", "file": str(source),
        "line": 2, "module": "layers.0.attn", "op": "masked_fill", "node": "n4", "hint": "fill with -inf",
        "related": [{"file": str(source), "line": 1, "function": "forward", "role": "mask built here"}],
    }
    return {"target": "masked.py:build", "findings": [finding], "summary": {}}


# ----------------------------------------------------------------------------- SARIF
def test_the_sarif_log_of_a_run_is_valid_sarif_2_1_0(cohort: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "sarif", *cohort]) == 2
    captured = capsys.readouterr()
    log = json.loads(captured.out)
    validate(log)
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert len({rule["id"] for rule in rules}) == len(rules)  # one rule per code
    results = run["results"]
    softmax = [result for result in results if result["ruleId"] == "softmax-axis"]
    assert softmax and rules[softmax[0]["ruleIndex"]]["id"] == "softmax-axis"
    location = softmax[0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "buggy.py", "uriBaseId": "%SRCROOT%"}
    source = textwrap.dedent(BUGGY).splitlines()
    assert location["region"]["startLine"] == source.index("        return torch.softmax(scores, dim=-2) @ self.v(x)") + 1
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert "SyntaxError" in notification["message"]["text"] and notification["properties"]["kind"] == "target"
    assert notification["locations"] == [{"physicalLocation": {
        "artifactLocation": {"uri": "broken.py", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 1}}}]
    assert "attnscope: error: broken.py:build" in captured.err


def test_rules_carry_the_help_text_of_docs_checks_md() -> None:
    rules = documented_rules()
    assert "softmax-axis" in rules and "shape-error" in rules and len(rules) >= 19
    softmax = rules["softmax-axis"]
    assert softmax.level == "error" and softmax.short.startswith("The score table")
    assert "How attnscope detects it." in softmax.text and "```python" in softmax.markdown
    assert "prints (exit status" not in softmax.markdown  # the example output stays in the docs
    assert rules["scale-factor"].level == "warning"


def test_related_locations_and_help_reach_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    log = sarif_log([related_result(tmp_path)])
    validate(log)
    (result,) = log["runs"][0]["results"]
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"] == {"artifactLocation": {"uri": "masked.py", "uriBaseId": "%SRCROOT%"},
                                           "region": {"startLine": 1}}
    assert related["message"]["text"] == "mask built here (in forward)"
    assert result["locations"][0]["logicalLocations"] == [{"fullyQualifiedName": "layers.0.attn", "kind": "module"}]
    rule = log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["id"] == "mask-value" and rule["help"]["text"].startswith("What it means.")


def test_a_code_the_docs_do_not_have_gets_a_bare_rule(tmp_path: Path) -> None:
    result = related_result(tmp_path)
    result["findings"][0]["code"] = "brand-new-check"
    log = sarif_log([result])
    validate(log)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[log["runs"][0]["results"][0]["ruleIndex"]]["id"] == "brand-new-check"


# ----------------------------------------------------------------------------- GitHub
def test_github_workflow_commands(cohort: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "github", *cohort]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("::error file=buggy.py,line=") and ",title=attnscope softmax-axis::softmax normalizes"
               in line for line in lines)
    assert any(line.startswith("::warning file=buggy.py,") and "title=attnscope scale-factor::" in line for line in lines)
    assert any(line.startswith("::error file=broken.py,line=1,title=attnscope target::broken.py:build: importing")
               for line in lines)
    assert all(line.startswith("::") for line in lines)


def test_a_failed_submission_is_located_at_the_line_that_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("syntax.py").write_text("import torch\n\n\ndef build(:\n    pass\n")
    Path("raises.py").write_text("import torch\n\n\ndef build():\n    x = torch.ones(2, 3)\n    return x @ x, ()\n")
    Path("missing.py").write_text("x = 1\n")
    targets = ["syntax.py:build", "raises.py:build", "missing.py:build"]
    assert main(["check", "--json", *targets]) == 2
    syntax, raises, missing = map(json.loads, capsys.readouterr().out.splitlines())
    assert (syntax["file"], syntax["line"]) == (str(tmp_path / "syntax.py"), 4)
    assert (raises["file"], raises["line"]) == (str(tmp_path / "raises.py"), 6)  # the user's line, not torch's
    assert "file" not in missing  # no line failed: the name is missing
    assert main(["check", "--format", "github", *targets]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("::error file=syntax.py,line=4,title=attnscope target::syntax.py:build: importing")
    assert lines[1].startswith("::error file=raises.py,line=6,title=attnscope target::")
    assert lines[2].startswith("::error title=attnscope target::missing.py:build:")
    log = sarif_log([syntax, raises, missing])
    validate(log)
    located = [n.get("locations") for n in log["runs"][0]["invocations"][0]["toolExecutionNotifications"]]
    assert [places[0]["physicalLocation"]["region"]["startLine"] if places else None for places in located] == [4, 6, None]


def test_github_values_are_escaped(tmp_path: Path) -> None:
    result = related_result(tmp_path)
    result["findings"][0]["message"] = "100% wrong,\nreally: yes"
    (line,) = lines_of(result)
    assert line.endswith("::100%25 wrong,%0Areally: yes (hint: fill with -inf)")
    assert "title=attnscope mask-value" in line


# ----------------------------------------------------------------------------- the cohort report
@pytest.fixture
def results_file(cohort: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "results.jsonl"
    main(["check", "--results", str(path), *cohort])
    capsys.readouterr()
    return path


def test_report_tables_count_codes_and_list_submissions(results_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(results_file)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 submissions: ")
    tally = out.splitlines()[0]
    assert "1 with errors" in tally and "1 clean" in tally and "1 could not be loaded" in tally
    assert "target" not in tally  # the JSON kind, not the words a teaching assistant reads
    row = next(line for line in out.splitlines() if "broken.py:build" in line)
    assert "could not be" in row and "target" not in row  # nor in its verdict column
    assert "softmax-axis" in out and "buggy.py:build" in out and "SyntaxError" in out


def test_report_csv_has_one_row_per_submission(results_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.csv"
    assert main(["report", str(results_file), "-o", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    by_target = {row["target"]: row for row in rows}
    assert set(by_target) == {"buggy.py:build", "broken.py:build", "zoo:ref_encoder_decoder"}
    assert by_target["buggy.py:build"]["verdict"] == "errors" and "softmax-axis" in by_target["buggy.py:build"]["codes"]
    assert by_target["broken.py:build"]["verdict"] == "target" and "SyntaxError" in by_target["broken.py:build"]["error"]
    assert by_target["zoo:ref_encoder_decoder"]["verdict"] == "clean"


def test_report_html_is_self_contained_with_the_flagged_blocks_drawn(
    results_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(results_file), "-o", str(out)]) == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page  # the diagram is inline
    assert "src=" not in page and "<link" not in page  # nothing to fetch
    assert "softmax-axis" in page and "buggy.py:build" in page
    stored = [json.loads(line) for line in results_file.read_text().splitlines()]
    (buggy,) = [item for item in stored if item["target"] == "buggy.py:build"]
    assert buggy["diagrams"] and buggy["diagrams"][0]["dot"].startswith(("digraph", "strict digraph"))


BRACKETED = "calling build() raised RuntimeError: [enforce fail at alloc_cpu.cpp:127] data. [/] [bold]not bold[/bold]"
LONG_TARGET = "subs/a_long_folder_of_the_course_2024/submission_of_student_number_0042_resubmitted.py:build"


def column(out: str, index: int) -> list[str]:
    """The cells of one column of a Rich table, one string per table line."""
    return [line.split("│")[index + 1].strip() for line in out.splitlines() if line.startswith("│")]


@pytest.mark.parametrize("columns", ["60", "400"])
def test_report_shows_any_text_whole_at_the_width_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], columns: str,
) -> None:
    path = tmp_path / "r.jsonl"
    lines = [{"target": LONG_TARGET, "error": f"{LONG_TARGET}: {BRACKETED}", "kind": "target"},
             {"target": "b.py:build", "findings": [{"code": "softmax-axis", "severity": "error", "message": "[/]"}]}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert max(map(len, out.splitlines())) <= int(columns)
    assert "".join(column(out, 0)).endswith(LONG_TARGET)  # folded, never cut
    assert "".join("".join(column(out, 4)).split()).endswith("".join(BRACKETED.split()))  # every character kept


def test_report_refuses_a_file_without_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    for text in ("", "\n\n", '{"target": "a.py:build", "findings": [{"code": "x"}]}\n', '{"target": "x"}\n'):
        path.write_text(text)
        assert main(["report", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"attnscope: error: {path}") and err.count("\n") == 1


def test_report_refuses_what_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "absent.jsonl")]) == 2
    assert "no such results file" in capsys.readouterr().err
    path = tmp_path / "r.jsonl"
    path.write_text('{"target": "x"}\n')
    assert main(["report", str(path), "-o", str(tmp_path / "report.pdf")]) == 2
    assert "written as .html or .csv" in capsys.readouterr().err


def test_a_report_prints_as_the_text_format_without_colour() -> None:
    from models.zoo import catalogue
    from support import check_entry

    report, _ = check_entry(catalogue()["softmax_axis_query"], witness=False)
    shown = str(report)
    lines = shown.splitlines()
    assert "softmax_axis_query.py:32: error[softmax-axis]: softmax normalizes over dim=-2" in lines[0]
    assert lines[1] == " 32 |         weights = torch.softmax(scores, dim=-2)  # BUG: softmax-axis"
    assert "  hint: normalize over the key axis: use dim=-1" in lines
    assert lines[-1] == "zoo:softmax_axis_query: 1 error, 0 warnings (17 ops, 1 attention block)"
    assert "\x1b[" not in shown  # no colour codes
