"""Did a change reach the protected region? The largest move there, and where it happened.

Two runs that differ only where a witness changed the inputs are compared cell by cell in
the region the witness protects. Float noise is not a move: a cell moves when it changes by
more than `RELATIVE` of the scale of the cells judged (not of a fill: -1e4 written over padded
outputs, or over real positions a head does not score, is one value repeated). NaN in
both runs at one cell, or one infinity in both, is no change.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

RELATIVE = 1e-5


@dataclass(frozen=True)
class Move:
    by: float
    cell: tuple[int, ...]  # the cell that moved most


def moved(before: torch.Tensor, after: torch.Tensor, protected: torch.Tensor) -> Move | None:
    """The largest change in the protected cells, or None when none moved beyond float noise."""
    if before.shape != after.shape:
        return Move(float("inf"), ())
    if before.is_complex():
        before, after = torch.view_as_real(before), torch.view_as_real(after)
        protected = protected.unsqueeze(-1)
    if not bool(((before != after) & protected).any()):  # every protected cell equal (NaN is never): no move,
        return None  # found without the float64 pass below, which a clean witness would pay on every output
    protected = torch.broadcast_to(protected, before.shape)
    if not (before.is_floating_point() or after.is_floating_point()):
        change = (before != after).to(torch.float64)
        tolerance = 0.0
    else:
        first, second = before.detach().to(torch.float64), after.detach().to(torch.float64)
        same = (first == second) | (torch.isnan(first) & torch.isnan(second))  # equal infinities too
        change = torch.where(same, torch.zeros((), dtype=torch.float64), (second - first).abs())
        change = torch.nan_to_num(change, nan=float("inf"))
        tolerance = RELATIVE * (1.0 + _scale(first, protected))
    change = torch.where(protected, change, torch.zeros((), dtype=change.dtype))
    if change.numel() == 0:
        return None
    largest = float(change.max())
    if largest <= tolerance:
        return None
    cell = tuple(int(i) for i in torch.unravel_index(change.argmax(), change.shape))
    return Move(largest, cell)


def _scale(values: torch.Tensor, protected: torch.Tensor) -> float:
    """The largest finite magnitude among the judged cells, a fill left out: computed values seldom
    repeat exactly, a fill always does, so values held by one cell only set the scale where any are."""
    judged = torch.isfinite(values) & protected
    finite = values[judged] if bool(judged.any()) else values[torch.isfinite(values)]
    if finite.numel() == 0:
        return 1.0
    distinct, counts = finite.unique(return_counts=True)
    computed = distinct[counts == 1]
    return float((computed if computed.numel() else finite).abs().max())


def changed_anywhere(before: torch.Tensor, after: torch.Tensor) -> bool:
    if before.shape != after.shape or before.dtype != after.dtype:
        return True
    return not torch.equal(torch.nan_to_num(before), torch.nan_to_num(after)) if before.is_floating_point() \
        else not torch.equal(before, after)
