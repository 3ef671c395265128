"""The plain-PyTorch side of the experiments: the task, sliding-window attention and the plans."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import torch

from models.experiments import RepeatTask, SlidingWindowAttention, catalogue
from models.experiments.plans import D_MODEL, parameter_count


def test_repeat_task_is_balanced_reproducible_and_periodic_only_in_class_one() -> None:
    task = RepeatTask(length=40, distance=7)
    tokens, labels = task.sample(200, seed=5)
    again, same_labels = task.sample(200, seed=5)
    assert torch.equal(tokens, again) and torch.equal(labels, same_labels)
    assert int(labels.sum()) == 100
    assert tokens.min() >= 1 and tokens.max() <= task.symbols
    periodic = (tokens[:, 7:] == tokens[:, :-7]).all(dim=1)
    assert torch.equal(periodic, labels.bool())


def test_repeat_task_refuses_a_distance_outside_the_sequence() -> None:
    with pytest.raises(ValueError, match="distance"):
        RepeatTask(length=8, distance=8)


@pytest.mark.parametrize("window", [1, 4, 12])
def test_chunked_and_masked_windows_compute_the_same_attention(window: int) -> None:
    torch.manual_seed(0)
    chunked = SlidingWindowAttention(16, 2, window, "chunked")
    masked = SlidingWindowAttention(16, 2, window, "masked")
    masked.load_state_dict(chunked.state_dict())
    x = torch.randn(3, 12, 16)
    out_chunked, _ = chunked(x)
    out_masked, weights = masked(x)
    torch.testing.assert_close(out_chunked, out_masked)
    query, key = torch.meshgrid(torch.arange(12), torch.arange(12), indexing="ij")
    outside = (key > query) | (key <= query - window)
    assert bool((weights[..., outside] == 0).all())
    torch.testing.assert_close(weights.sum(-1), torch.ones(3, 2, 12))


def test_chunked_window_needs_the_length_to_be_a_multiple_of_the_window() -> None:
    with pytest.raises(ValueError, match="divisible"):
        SlidingWindowAttention(8, 2, 5)(torch.randn(1, 12, 8))


def test_gru_and_transformer_arms_have_about_the_same_parameter_count() -> None:
    plan = catalogue()["gru-vs-transformer"].plan(False, None)
    for length in {variant.factor for variant in plan.variants}:
        counts = [parameter_count(v.build()) for v in plan.variants if v.factor == length]
        assert len(counts) == 2 and abs(counts[0] - counts[1]) / max(counts) < 0.03


def test_heads_plan_reports_a_head_count_that_does_not_divide_d() -> None:
    plan = catalogue()["heads"].plan(True, [1, 2, 3, 4, 8])
    invalid = {variant.factor: variant.invalid for variant in plan.variants if variant.invalid}
    assert list(invalid) == [3]
    assert f"d={D_MODEL} is not divisible by H" in invalid[3] and invalid[3].startswith("H=3")
    assert [v.columns["d_head"] for v in plan.variants if not v.invalid] == [32, 16, 8, 4]


def test_window_plan_says_where_the_dependency_lies() -> None:
    plan = catalogue()["window"].plan(False, [4, 8, 16, 5])
    assert plan.variants[0].label == "global"
    by_label = {variant.label: variant for variant in plan.variants}
    distance = by_label["w=4"].task.distance
    assert distance == 12
    assert by_label["w=4"].columns["dependency"] == "outside, even stacked"  # 2 x 3 < 12
    assert by_label["w=8"].columns["dependency"].startswith("outside one window, within 2")  # 7 < 12 <= 14
    assert by_label["w=16"].columns["dependency"] == "inside the window"  # 12 <= 15
    assert "divisor of T" in by_label["w=5"].invalid
    assert by_label["w=16 masked"].columns["method"] == "masked"


def test_models_import_neither_the_tracer_nor_its_apps() -> None:
    """models/ is plain PyTorch (CONTRACT.md "Names"); the experiments app imports it, never the reverse."""
    root = Path(__file__).resolve().parents[2] / "models"
    files = sorted(root.rglob("*.py"))
    assert any(path.parent.name == "experiments" for path in files)
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            assert not {name.split(".")[0] for name in names} & {"tracer", "tui", "experiments"}, path
