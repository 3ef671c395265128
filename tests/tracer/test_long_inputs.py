"""No silent skip on long inputs: every check that reads recorded values finds its planted bug
at T = 4096, where the score tables (64 MiB each) no longer fit the value budget; and where a
value it needs is still not kept, the report names the check and the summary counts it."""

from __future__ import annotations

import json

import pytest
import torch
from torch import nn

import tracer
from tracer.formats.text import summary_line

T = 4096
D = 4


class PlantedBug(nn.Module):
    """One head of width 4 over `x` (2, T, 4), with `keep` (2, T) a float 0/1 padding mask:
    the bug named by `code` is planted, everything else is right."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code
        self.q, self.k, self.v = nn.Linear(D, D), nn.Linear(D, D), nn.Linear(D, D)

    def forward(self, x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        q, k, v = self.q(x), self.k(x), self.v(x)
        scores = q @ k.transpose(-2, -1) / D ** 0.5
        n = x.size(1)
        later = torch.ones(n, n, dtype=torch.bool).triu(1)
        code = self.code
        if code == "mask-after-softmax":
            return (scores.softmax(-1) * keep[:, None, :]) @ v
        if code == "mask-value":  # a 0/1 mask multiplied into the scores: hidden keys keep exp(0)
            return (scores * keep[:, None, :]).softmax(-1) @ v
        if code == "mask-axis":  # the key padding laid along the queries
            return scores.masked_fill(keep[:, :, None] == 0, float("-inf")).softmax(-1) @ v
        if code == "mask-polarity":  # 1 = keep read as True = hide
            return scores.masked_fill(keep[:, None, :].bool(), float("-inf")).softmax(-1) @ v
        if code == "causal-leak":
            return scores.masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(1), float("-inf")).softmax(-1) @ v
        if code == "causal-diagonal":
            return scores.masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(-1), float("-inf")).softmax(-1) @ v
        if code == "fully-masked-row":  # query 7 sees no key
            return scores.masked_fill(later | (torch.arange(n)[:, None] == 7), float("-inf")).softmax(-1) @ v
        if code == "unstable-softmax":
            exp = scores.masked_fill(later, float("-inf")).exp()
            return exp / exp.sum(-1, keepdim=True) @ v
        if code == "nan":  # the log of negative outputs
            return (scores.masked_fill(later, float("-inf")).softmax(-1) @ v).log()
        raise ValueError(code)


VALUE_CHECKS = ("mask-after-softmax", "mask-value", "mask-axis", "mask-polarity", "causal-leak", "causal-diagonal",
                "fully-masked-row", "unstable-softmax", "nan")


def _inputs(length: int = T) -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    keep = torch.ones(2, length)
    keep[1, length // 2:] = 0
    return torch.randn(2, length, D), keep


@pytest.mark.parametrize("code", VALUE_CHECKS)
def test_each_value_check_finds_its_bug_at_t_4096(code: str) -> None:
    report, recorded = tracer.run_check(PlantedBug(code).eval(), _inputs(), witness=False)
    assert recorded.recording.dropped, "the score tables should be over the value budget"
    found = {f.code for finding in report.findings for f in (finding, *finding.consequences)}
    assert code in found  # on its own, or as the consequence of another mistake (query 7's row: a query-only mask)
    assert "checks_not_run" not in report.summary


def test_a_float_mask_input_is_kept_at_any_length_and_a_weight_never_counts_as_a_mask() -> None:
    model = PlantedBug("mask-after-softmax").eval()
    x, keep = _inputs()
    with torch.no_grad(), tracer.trace(model) as recorded:
        model(x, keep)
    values, names = recorded.recording.values, {s.name: vid for vid, s in recorded.recording.sources.items()}
    assert torch.equal(values[names["keep"]], keep)
    assert names["x"] not in values  # (2, 4096, 4) of many levels: no mask, too large to keep
    wide = nn.Linear(1, 8192)
    nn.init.zeros_(wide.weight)  # one level, 8192 elements: a weight all the same
    with torch.no_grad(), tracer.trace(wide) as recorded:
        wide(torch.ones(1, 1))
    weight = next(vid for vid, s in recorded.recording.sources.items() if s.kind == "param" and s.meta.numel == 8192)
    assert weight not in recorded.recording.values


@pytest.mark.parametrize("code, not_run", [
    ("mask-after-softmax", {"mask-after-softmax"}),
    ("mask-value", {"mask-value", "mask-axis", "mask-polarity", "causal-leak", "causal-diagonal", "fully-masked-row"}),
    ("causal-leak", {"mask-axis", "mask-polarity", "causal-leak", "causal-diagonal", "fully-masked-row"}),
])
def test_a_mask_left_out_of_the_budget_names_the_checks_that_did_not_run(code: str, not_run: set[str]) -> None:
    report, _ = tracer.run_check(PlantedBug(code).eval(), _inputs(64), witness=False, mask_budget_bytes=64)
    assert code not in {finding.code for finding in report.findings}
    assert set(report.summary["checks_not_run"]) == not_run
    assert json.loads(report.to_json())["summary"]["checks_not_run"] == report.summary["checks_not_run"]
    line = next(note for note in report.notes if "could not judge" in note)
    assert "test_long_inputs.py:" in line and "--value-budget" in line and all(check in line for check in not_run)
    assert f"{len(not_run)} check{'s' if len(not_run) > 1 else ''} not run (see the notes)" in summary_line(report).plain


def test_on_the_meta_device_the_value_checks_are_counted_as_not_run() -> None:
    with torch.device("meta"):
        model, inputs = PlantedBug("causal-leak"), _inputs(16)
    report, _ = tracer.run_check(model, inputs, witness=False)
    assert {"nan", "mask-value", "causal-leak"} <= set(report.summary["checks_not_run"])
