"""The check catalogue: one small check per finding code of CONTRACT.md, run like a linter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings import Finding
from .axis_mismatch import AxisMismatch
from .base import Check
from .batch_tear import BatchTear
from .causal_diagonal import CausalDiagonal
from .causal_leak import CausalLeak
from .dropout_eval import DropoutEval
from .fully_masked_row import FullyMaskedRow
from .head_merge import HeadMerge
from .head_split import HeadSplit
from .layernorm_axis import LayerNormAxis
from .layernorm_variance import LayerNormVariance
from .mask_after_softmax import MaskAfterSoftmax
from .mask_axis import MaskAxis
from .mask_polarity import MaskPolarity
from .mask_value import MaskValue
from .nan import Nan
from .positional_axis import PositionalAxis
from .scale_factor import ScaleFactor
from .shape_error import ShapeError
from .softmax_axis import SoftmaxAxis
from .unstable_softmax import UnstableSoftmax

if TYPE_CHECKING:
    from ..analysis import Analysis

CHECKS: tuple[type[Check], ...] = (
    SoftmaxAxis, MaskAfterSoftmax, MaskValue, MaskAxis, MaskPolarity, CausalLeak, CausalDiagonal,
    FullyMaskedRow, ScaleFactor, UnstableSoftmax, HeadSplit, HeadMerge, LayerNormAxis,
    LayerNormVariance, PositionalAxis, AxisMismatch, DropoutEval, Nan, ShapeError, BatchTear,
)


def _catalogue() -> dict[str, Check]:
    catalogue: dict[str, Check] = {}
    for check in CHECKS:
        if check.code in catalogue:
            raise ValueError(f"two checks claim the code {check.code}")
        catalogue[check.code] = check()
    return catalogue


CATALOGUE = _catalogue()


def run_checks(analysis: "Analysis", select: set[str] | None = None, ignore: set[str] | None = None) -> list[Finding]:
    """Every finding of the selected checks, in catalogue order.

    A check that fails on an unforeseen model is skipped with a note: the other checks'
    findings still reach the user.
    """
    findings: list[Finding] = []
    for code, check in CATALOGUE.items():
        if (select and code not in select) or (ignore and code in ignore):
            continue
        try:
            findings.extend(check.run(analysis))
        except Exception as problem:  # noqa: BLE001 - reported, never raised at the user
            analysis.notes.append(f"internal error in check {code}: {type(problem).__name__}: {problem}")
    return findings
