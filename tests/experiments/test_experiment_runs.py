"""The runner and `attnscope experiment`: the --quick plans end to end, counts checked against the models.

Counts in the tables come from the tracer's recording; here they are checked against what
the models are known to do: nn.Module calls counted with forward hooks, one attention call
per encoder layer, score tables of m x H x T x T_k, and the window's visible keys summed
query by query.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from experiments import Outcome, load_experiments, run_experiment
from experiments.report import METRICS, QUICK_CAVEAT, label
from models.experiments import SlidingWindowAttention
from models.reference import MultiHeadAttention
from tracer.cli import main

DESIGN = {
    "gru-vs-transformer": ["T", "D", "model", "width"],
    "heads": ["H", "T", "D", "d_head"],
    "window": ["T", "D", "window", "method", "reach", "dependency"],
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """The three --quick plans, run once (seed 0) for every test of this module."""
    out = tmp_path_factory.mktemp("experiments")
    experiments = load_experiments()
    return {name: run_experiment(experiments[name].plan(True, None), quick=True, seeds=[0], out=out) for name in DESIGN}


def module_calls_by_hooks(model: nn.Module, batch: torch.Tensor) -> int:
    """nn.Module calls in one forward pass, counted by torch's own hooks (independent of the tracer)."""
    calls = []
    handles = [module.register_forward_pre_hook(lambda *_: calls.append(1)) for module in model.modules()]
    with torch.no_grad():
        model.eval()(batch)
    for handle in handles:
        handle.remove()
    return len(calls)


def expected_scores(model: nn.Module, batch: torch.Tensor) -> tuple[int, int, int]:
    """(attention layers, computed score entries, visible score entries), from the model's definition."""
    layers = [module for module in model.modules() if isinstance(module, MultiHeadAttention)]
    m, length = batch.shape
    computed = visible = 0
    for layer in layers:
        heads = layer.num_heads
        if isinstance(layer, SlidingWindowAttention):
            w = layer.window
            keys = 2 * w if layer.method == "chunked" else length
            computed += m * heads * length * keys
            visible += m * heads * sum(min(t + 1, w) for t in range(length))
        else:
            computed += m * heads * length * length
            visible += m * heads * length * length
    return len(layers), computed, visible


@pytest.mark.parametrize("name", list(DESIGN))
def test_quick_run_writes_tables_with_the_expected_columns(outcomes: dict[str, Outcome], name: str) -> None:
    outcome = outcomes[name]
    markdown, table, figure = outcome.files
    columns = ["arm", *DESIGN[name], *METRICS]
    with table.open() as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == columns
    assert [row["arm"] for row in rows] == [variant.label for variant in outcome.plan.variants]
    text = markdown.read_text()
    assert "| " + " | ".join(label(column) for column in columns) + " |" in text
    assert QUICK_CAVEAT in text
    for column in DESIGN[name]:
        assert f"- `{label(column)}`: " in text, column
    assert figure.read_bytes().startswith(b"\x89PNG")
    for row in rows:
        assert 0.0 <= float(row["accuracy"]) <= 1.0
        assert min(float(row[column]) for column in ("train_s", "train_cpu_s", "infer_ms", "peak_mib")) > 0


@pytest.mark.parametrize("name", list(DESIGN))
def test_counts_match_the_models(outcomes: dict[str, Outcome], name: str) -> None:
    outcome = outcomes[name]
    size = outcome.plan.training.batch_size
    for result in outcome.results:
        variant, counts = result.variant, result.costs.counts
        batch = variant.task.sample(outcome.plan.training.test_size, outcome.plan.training.data_seed + 1)[0][:size]
        torch.manual_seed(0)
        model = variant.build()
        layers, computed, visible = expected_scores(model, batch)
        assert counts["forward_passes"] == 1
        assert counts["module_calls"] == module_calls_by_hooks(model, batch), variant.label
        assert counts["attention_calls"] == layers * counts["forward_passes"], variant.label
        assert counts["attention_blocks"] == layers
        assert counts["score_elements"] == computed, variant.label
        assert counts["visible_scores"] == visible, variant.label
        assert counts["ops"] > counts["module_calls"] or layers == 0


def test_window_counts_separate_what_is_computed_from_what_is_visible(outcomes: dict[str, Outcome]) -> None:
    rows = {row["arm"]: row for row in outcomes["window"].rows}
    widest = max(v.factor for v in outcomes["window"].plan.variants if v.series == "chunked")
    chunked, masked, full = rows[f"w={widest}"], rows[f"w={widest} masked"], rows["global"]
    assert chunked["visible_scores"] == masked["visible_scores"] < full["visible_scores"]
    assert masked["score_elements"] == full["score_elements"] > chunked["score_elements"]


def test_invalid_head_count_is_reported_and_the_others_still_run(tmp_path: Path, capsys: Any) -> None:
    status = main(["experiment", "heads", "--quick", "--values", "3", "4", "--out", str(tmp_path)])
    output = capsys.readouterr()
    assert status == 2
    assert "H=3: d=32 is not divisible by H" in output.err and "that arm was not run" in output.err
    with (tmp_path / "heads.csv").open() as handle:
        rows = {row["arm"]: row for row in csv.DictReader(handle)}
    assert "not divisible" in rows["H=3"]["note"] and rows["H=3"]["accuracy"] == ""
    assert rows["H=4"]["note"] == "" and rows["H=4"]["attention_calls"] == "2"
    assert "H=4" in output.out and "wrote" in output.out


def test_terminal_table_carries_the_markdowns_labels_and_caveats(tmp_path: Path, capsys: Any) -> None:
    """`D` is the task's lag, not the width d: under "fixed d = 32" a bare `D 8` misled."""
    assert main(["experiment", "heads", "--quick", "--values", "2", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    lines = printed.splitlines()
    assert "heads at fixed d = 32" in lines[0]
    assert QUICK_CAVEAT in printed
    [lag] = [line for line in lines if line.startswith("│ lag D ")]
    assert lag.split("│")[2].strip() == "8"
    assert not any(line.startswith("│ D ") for line in lines)
    markdown = (tmp_path / "heads.md").read_text()
    for note in [line for line in markdown.splitlines() if line.startswith("- ")]:
        assert note.replace("`", "") in printed, note


def test_unknown_experiment_is_a_usage_error(capsys: Any) -> None:
    assert main(["experiment", "nonesuch"]) == 2
    message = capsys.readouterr().err
    assert all(f"{name} (exercise" in message for name in DESIGN)
