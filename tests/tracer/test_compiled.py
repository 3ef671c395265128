"""torch.compile everywhere (issue 11): check, render and the Python API trace the original module.

Tracing through dynamo used to give a bogus shape-error ("already tracked for mutation")
at the launcher's line and miss the real bug. Now a compiled model is traced as what
`_orig_mod` holds, eagerly, and the report says so, as `attnscope run` already did.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import torch
from torch import nn

import tracer
from tracer.cli import main

COMPILED_TARGET = """
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x):
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 8 ** 0.5
        return torch.softmax(scores, dim=-2) @ self.v(x)   # softmax over the queries


def build():
    return torch.compile(Attention().eval()), torch.randn(2, 5, 8)
"""


class Attention(nn.Module):
    def __init__(self, d: int = 8) -> None:
        super().__init__()
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scores = self.q(x) @ self.k(x).transpose(-2, -1) / 8 ** 0.5
        return torch.softmax(scores, dim=-2) @ self.v(x)


class Outer(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attn = Attention()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.attn(x)


def codes(report: tracer.Report) -> list[str]:
    return [finding.code for finding in report.findings]


def test_the_api_traces_a_compiled_model_through_its_original_module() -> None:
    model = Attention().eval()
    report = tracer.check(torch.compile(model), torch.randn(2, 5, 8))
    assert codes(report) == ["softmax-axis"]
    assert "torch.compile(Attention) ran uncompiled: attnscope traced the original module (_orig_mod)" in report.notes
    assert all(not finding.module.startswith("_orig_mod") for finding in report.findings)


def test_a_module_compiled_in_place_inside_the_model_runs_eagerly() -> None:
    model = Outer().eval()
    model.attn.compile()
    report = tracer.check(model, torch.randn(2, 5, 8))
    assert codes(report) == ["softmax-axis"] and report.findings[0].module == "attn"
    assert any("torch.compile(Attention) inside the model ran eagerly" in note for note in report.notes)


def test_check_and_render_unwrap_a_target_that_compiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "compiled.py").write_text(textwrap.dedent(COMPILED_TARGET))
    target = f"{tmp_path / 'compiled.py'}:build"
    assert main(["check", "--json", target]) == 1
    (result,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [f["code"] for f in result["findings"]] == ["softmax-axis"]
    assert result["findings"][0]["file"] == str(tmp_path / "compiled.py")
    assert any(note.startswith("torch.compile(Attention) ran uncompiled") for note in result["notes"])
    out = tmp_path / "compiled.dot"
    assert main(["render", target, "-o", str(out)]) == 0
    assert "softmax" in out.read_text() and "_orig_mod" not in out.read_text()


def test_what_is_compiled_but_never_runs_gets_no_note() -> None:
    from tracer.compiled import uncompiled

    notes: list[str] = []
    model = Attention().eval()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with uncompiled(notes):
        step = torch.compile(optimizer.step)  # a training step the traced code never takes
        compiled = torch.compile(model)
        helper = torch.compile(lambda x: x.sum())
    assert compiled is model and notes == []
    with torch.no_grad():
        compiled(torch.randn(2, 5, 8))
    assert notes == ["torch.compile(Attention) ran uncompiled: attnscope traced the original module (_orig_mod)"]
    assert float(helper(torch.ones(3))) == 3.0 and len(notes) == 2 and "ran uncompiled under attnscope" in notes[1]
    assert callable(step) and len(notes) == 2
    compiled(torch.randn(2, 5, 8))
    assert len(notes) == 2 and not model._forward_pre_hooks  # noted once, and the hook is gone
