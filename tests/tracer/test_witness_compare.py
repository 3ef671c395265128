"""What counts as a move in the protected cells: beyond float noise, NaN in both runs is no change."""

from __future__ import annotations

import math

import torch

from tracer.witness.compare import moved

NAN = float("nan")


def test_a_change_outside_the_protected_cells_is_no_move() -> None:
    before, protected = torch.zeros(2, 3), torch.tensor([[True], [False]])
    after = before.clone()
    after[1, 2] = 5.0
    assert moved(before, after, protected) is None
    after[0, 1] = 2.0
    move = moved(before, after, protected)
    assert move is not None and move.by == 2.0 and move.cell == (0, 1)


def test_nan_in_both_runs_is_no_move_but_nan_in_one_is() -> None:
    before, protected = torch.tensor([1.0, NAN]), torch.ones(2, dtype=torch.bool)
    assert moved(before, before.clone(), protected) is None
    move = moved(before, torch.tensor([NAN, NAN]), protected)
    assert move is not None and math.isinf(move.by) and move.cell == (0,)


def test_float_noise_is_no_move() -> None:
    before, protected = torch.tensor([1000.0, 1.0]), torch.ones(2, dtype=torch.bool)
    assert moved(before, before + 1e-6, protected) is None


def test_a_fill_over_protected_cells_sets_no_scale() -> None:
    """-1e4 written over real positions that are not scored is one value repeated: the move of a
    computed score is judged against the computed scores, not against the fill."""
    before = torch.tensor([-1e4, -1e4, -1e4, 0.5, -0.3, 0.2])
    after = before.clone()
    after[3] += 0.002
    assert moved(before, after, torch.ones(6, dtype=torch.bool)) is not None
    assert moved(before, before + torch.tensor([0, 0, 0, 1e-7, 0, 0]), torch.ones(6, dtype=torch.bool)) is None
