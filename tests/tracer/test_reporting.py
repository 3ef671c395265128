"""How mistakes are reported: one mistake one error (its consequences as notes under it), every
mistake of a model reported, operands named as written, hints that lead to the fix."""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import torch
from torch import nn

import tracer
from models.zoo import catalogue
from support import check_entry
from tracer.checks.consequences import folded, unfolded
from tracer.cli import main
from tracer.findings import Finding, Related, Report
from tracer.formats.text import report_from_dict

ZOO = catalogue()


def _finding(code: str, line: int, severity: str = "error", related: tuple[int, ...] = (),
             came_from: tuple[int, ...] = ()) -> Finding:
    return Finding(code, severity, f"{code} at {line}", "m.py", line, "", "op", "n", event=line,
                   related=tuple(Related("m.py", at, "", "built here") for at in related),
                   came_from=frozenset({("m.py", line), *(("m.py", at) for at in came_from)}))


# --------------------------------------------------------------------------- 7a: consequences
def test_a_hidden_diagonal_is_one_error_with_its_empty_row_and_nan_as_notes(capsys) -> None:
    report, _ = check_entry(ZOO["causal_diagonal_buffer_init"])
    assert [(f.code, f.severity) for f in report.findings] == [("causal-diagonal", "error")]
    assert [(c.code, c.line) for c in report.findings[0].consequences] == [("fully-masked-row", 37), ("nan", 38)]
    assert report.counts() == {"error": 1, "warning": 0, "info": 0}
    data = report.to_dict()
    assert data["summary"]["findings"]["error"] == 1
    assert [c["code"] for c in data["findings"][0]["consequences"]] == ["fully-masked-row", "nan"]
    text = str(report_from_dict(json.loads(report.to_json())))  # the CLI prints what the child sent
    assert "note: consequence [nan]: softmax turned an infinite input into NaN" in text
    assert "1 error, 0 warnings" in text


def test_a_nan_the_mask_value_made_is_a_consequence_of_the_mask_value() -> None:
    report, _ = check_entry(ZOO["mask_value_fp16_overflow"])
    assert [f.code for f in report.findings] == ["mask-value"]
    assert [c.code for c in report.findings[0].consequences] == ["nan"]


def test_an_unexplained_nan_stays_an_error() -> None:
    report, _ = check_entry(ZOO["nan_sqrt_negative_variance"])
    assert [(f.code, f.severity) for f in report.findings] == [("nan", "error")]


def test_a_warning_explains_no_error_so_the_nan_of_an_overflowing_exp_stays_an_error() -> None:
    report, _ = check_entry(ZOO["unstable_softmax_exp_overflow"])
    assert {(f.code, f.severity) for f in report.findings} == {("nan", "error"), ("unstable-softmax", "warning")}
    assert all(not f.consequences for f in report.findings)


def test_symptoms_fold_under_the_root_cause_and_unfold_back() -> None:
    cause = _finding("causal-diagonal", 37, related=(27,))
    row = _finding("fully-masked-row", 37, related=(27,))
    nan = _finding("nan", 38, related=(37, 39), came_from=(37,))
    elsewhere = _finding("nan", 50)  # came from no line another finding stands on
    found = folded([cause, row, nan, elsewhere])
    assert [f.code for f in found] == ["causal-diagonal", "nan"]
    assert found[0].consequences == (row, nan)
    assert unfolded(found) == [cause, row, nan, elsewhere]
    assert folded(found) == found  # folding again changes nothing


def test_a_nan_follows_an_empty_row_and_never_the_reverse() -> None:
    row = _finding("fully-masked-row", 37)
    nan = _finding("nan", 38, related=(37,), came_from=(37,))
    assert [(f.code, [c.code for c in f.consequences]) for f in folded([nan, row])] == [("fully-masked-row", ["nan"])]


def test_a_refuted_cause_explains_nothing() -> None:
    refuted = _finding("mask-polarity", 37, severity="info")
    row = _finding("fully-masked-row", 37)
    assert [f.code for f in folded([refuted, row])] == ["mask-polarity", "fully-masked-row"]


def test_consequences_reach_sarif_and_github(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    assert main(["check", "--format", "sarif", "zoo:causal_diagonal_triu_zero"]) == 1
    result = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert [r["ruleId"] for r in result] == ["causal-diagonal"]
    notes = [place["message"]["text"] for place in result[0]["relatedLocations"]]
    assert any(note.startswith("consequence [nan]: ") for note in notes)
    assert main(["check", "--format", "github", "zoo:causal_diagonal_triu_zero"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and "(consequence [fully-masked-row] at line 35: " in lines[0]


# --------------------------------------------------------------------------- 7b: every mistake reported
class SplitAndMergeWithoutTranspose(nn.Module):
    """Heads split with view(B, H, T, d_h) and merged with view(B, T, d): two mistakes."""

    def __init__(self, d: int = 16, heads: int = 2):
        super().__init__()
        self.heads, self.project = heads, nn.ModuleList(nn.Linear(d, d) for _ in range(4))

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = (p(x).view(B, self.heads, T, d // self.heads) for p in self.project[:3])  # split
        weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d // self.heads), dim=-1)
        out = (weights @ v).view(B, T, d)  # merge
        return self.project[3](out)


def test_a_head_split_and_a_head_merge_are_both_reported() -> None:
    model = SplitAndMergeWithoutTranspose().eval()
    report = tracer.check(model, torch.randn(2, 6, 16))
    codes = {f.code for f in report.findings if f.severity == "error"}
    assert codes == {"head-split", "head-merge"}
    merge = next(f for f in report.findings if f.code == "head-merge")
    assert "# merge" in Path(merge.file).read_text().splitlines()[merge.line - 1]


def test_a_merge_that_only_inverts_a_correct_split_is_no_finding() -> None:
    class Correct(SplitAndMergeWithoutTranspose):
        def forward(self, x):
            B, T, d = x.shape
            q, k, v = (p(x).view(B, T, self.heads, d // self.heads).transpose(1, 2) for p in self.project[:3])
            weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d // self.heads), dim=-1)
            return self.project[3]((weights @ v).transpose(1, 2).reshape(B, T, d))

    report = tracer.check(Correct().eval(), torch.randn(2, 6, 16))
    assert [f.to_dict() for f in report.findings if f.severity != "info"] == []


# --------------------------------------------------------------------------- 7d, 7f: shape errors
def _write(tmp_path: Path, body: str) -> str:
    path = tmp_path / "model.py"
    path.write_text("import torch\nfrom torch import nn\n\n" + textwrap.dedent(body))
    return str(path)


def test_operands_are_named_as_the_user_wrote_them(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path, """
        class SelfProduct(nn.Module):
            def forward(self, x):
                q = x * 2
                return torch.softmax(q @ q, dim=-1)

        class Transposed(nn.Module):
            def forward(self, x, w):
                return torch.matmul(x, w.transpose(-2, -1))

        def build():
            return SelfProduct(), (torch.randn(2, 5, 6),)

        def build_transposed():
            return Transposed(), (torch.randn(2, 5, 8), torch.randn(2, 8, 5))
        """)
    assert main(["check", "--json", f"{path}:build"]) == 1
    finding = json.loads(capsys.readouterr().out)["findings"][0]
    assert finding["code"] == "shape-error"
    assert "Operands: q: " in finding["message"] and "; q: " in finding["message"] and "k:" not in finding["message"]
    assert finding["hint"].endswith("q @ q.transpose(-2, -1)")
    assert main(["check", "--json", f"{path}:build_transposed"]) == 1
    finding = json.loads(capsys.readouterr().out)["findings"][0]
    assert "Operands: x: " in finding["message"] and "; w.transpose(-2, -1): " in finding["message"]
    assert finding["hint"] == "the second operand is transposed already: did you mean x @ w?"


def test_a_view_of_a_split_slice_is_told_to_transpose_not_to_reshape(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path, """
        class Attention(nn.Module):
            def __init__(self):
                super().__init__()
                self.qkv = nn.Linear(16, 48)

            def forward(self, x):
                B, T, C = x.shape
                q, k, v = self.qkv(x).split(C, dim=2)
                return q.view(B, 2, T, C // 2)

        def build():
            return Attention(), (torch.randn(2, 6, 16),)
        """)
    assert main(["check", "--json", f"{path}:build"]) == 1
    hint = json.loads(capsys.readouterr().out)["findings"][0]["hint"]
    assert hint.endswith("split in place, then transpose: .view(B, T, 2, C // 2).transpose(1, 2)")
    assert "use .reshape" not in hint
    # the hint's fix runs and is the correct split
    x = torch.randn(2, 6, 16)
    q = x.view(2, 6, 2, 8).transpose(1, 2)
    assert torch.equal(q[:, 1, 3], x[:, 3, 8:])


def test_a_view_of_a_transposed_value_that_tears_nothing_is_told_to_reshape(tmp_path: Path, capsys) -> None:
    path = _write(tmp_path, """
        class Merge(nn.Module):
            def forward(self, x):
                return x.transpose(1, 2).view(2, 6, 16)

        def build():
            return Merge(), (torch.randn(2, 2, 6, 8),)
        """)
    assert main(["check", "--json", f"{path}:build"]) == 1
    assert "use .reshape(...)" in json.loads(capsys.readouterr().out)["findings"][0]["hint"]


# --------------------------------------------------------------------------- 7e: one naming scheme
def test_the_docs_name_score_axes_as_the_output_does() -> None:
    """Output writes `Tq`, `Tk`, `Tq_x`; the docs' own words do too. Code blocks quote the models'
    source as it is, zoo.md the models' docstrings, experiments/ the experiments' reports."""
    import re

    root = Path(__file__).resolve().parents[2]
    pages = [root / "README.md", *(p for p in (root / "docs").glob("*.md") if p.name != "zoo.md")]
    old = re.compile(r"\bT_[qk]\b|\bT_\w+?[qk]=")
    prose = {page.name: re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL) for page in pages}
    assert [(name, m.group()) for name, text in prose.items() for m in old.finditer(text)] == []
    written = str(tracer.check(SplitAndMergeWithoutTranspose().eval(), torch.randn(2, 6, 16)))
    assert "?q=6" in written and "T_" not in written
