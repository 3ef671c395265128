"""Every check proven by the zoo: buggy models trigger their code at their bug line, correct ones stay clean."""

from __future__ import annotations

import inspect
import re

import pytest

from models.zoo import catalogue
from support import check_entry
from tracer.checks import CATALOGUE, CHECKS

ENTRIES = catalogue()
BUGGY = sorted(name for name, entry in ENTRIES.items() if entry.expected)
CORRECT = sorted(name for name, entry in ENTRIES.items() if not entry.expected)
CONTRACT_CODES = {
    "softmax-axis", "mask-after-softmax", "mask-value", "mask-axis", "mask-polarity", "causal-leak",
    "causal-diagonal", "fully-masked-row", "scale-factor", "unstable-softmax", "head-split", "head-merge",
    "layernorm-axis", "layernorm-variance", "positional-axis", "axis-mismatch", "dropout-eval", "nan",
    "shape-error", "batch-leak",
}


def bug_lines(entry) -> dict[int, str]:
    source = inspect.getsource(entry.module).splitlines()
    return {number: match.group(1) for number, line in enumerate(source, 1)
            if (match := re.search(r"# BUG: ([\w-]+)", line))}


def test_catalogue_covers_every_contract_code_once():
    assert set(CATALOGUE) == CONTRACT_CODES
    assert len(CHECKS) == len(CONTRACT_CODES)


@pytest.mark.parametrize("name", BUGGY)
def test_buggy_model_triggers_its_code_at_its_line(name):
    entry = ENTRIES[name]
    report, _ = check_entry(entry)
    found = {(f.code, f.line) for f in report.findings}
    for line, code in bug_lines(entry).items():
        if code in entry.expected:
            assert (code, line) in found, f"{code} expected at line {line}, got {sorted(found)}"
    assert not [note for note in report.notes if "internal error" in note]
    path = inspect.getsourcefile(entry.module)
    assert all(f.file == path for f in report.findings if f.code in entry.expected)


@pytest.mark.parametrize("name", BUGGY)
def test_buggy_model_has_no_unexplained_findings(name):
    entry = ENTRIES[name]
    report, _ = check_entry(entry)
    serious = {f.code for f in report.findings if f.severity in ("error", "warning")}
    assert serious - set(entry.expected) - set(entry.also) == set()


@pytest.mark.parametrize("name", CORRECT)
def test_correct_model_has_no_error_or_warning(name):
    report, _ = check_entry(ENTRIES[name])
    assert [f.to_dict() for f in report.findings if f.severity in ("error", "warning")] == []
    assert not [note for note in report.notes if "internal error" in note]


def test_findings_repeated_across_layers_are_reported_once_with_a_count():
    import torch
    from torch import nn

    class Layer(nn.Module):
        def forward(self, x):
            scores = x @ x.transpose(-2, -1)
            return torch.softmax(scores, dim=-2) @ x

    class Stack(nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList(Layer() for _ in range(3))

        def forward(self, x):
            for layer in self.layers:
                x = layer(x)
            return x

    import tracer

    report = tracer.check(Stack(), torch.randn(2, 4, 8))
    axis = [f for f in report.findings if f.code == "softmax-axis"]
    assert len(axis) == 1 and axis[0].count == 3 and "3 occurrences" in axis[0].message
