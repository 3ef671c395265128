"""scale-factor: scores entering the softmax must be scaled by 1/sqrt(d_k), d_k the contracted width."""

from __future__ import annotations

import math
from typing import Iterable

from ..findings import Finding
from .base import Check


def describe_factor(scale: float) -> str:
    """A scale as the formula it most likely came from: 1, 1/sqrt(n), 1/n or the number."""
    if math.isclose(scale, 1.0, rel_tol=1e-4):
        return "no scaling at all (factor 1)"
    for name, n in (("1/sqrt", 1 / scale**2), ("1/", 1 / scale)):
        if abs(n - round(n)) < 1e-3 * max(1.0, n) and round(n) > 1:
            return f"{name}({round(n)})" if name == "1/sqrt" else f"1/{round(n)}"
    return f"{scale:.4g}"


class ScaleFactor(Check):
    code = "scale-factor"
    severity = "warning"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            if block.scale is None or not block.contracted_size or block.product_event is None:
                continue
            d_k = block.contracted_size
            expected = 1 / math.sqrt(d_k)
            if math.isclose(block.scale, expected, rel_tol=1e-3):
                continue
            where = block.scale_events[0] if block.scale_events else block.product_event
            yield self.at(
                analysis, where,
                f"scores are scaled by {describe_factor(block.scale)} but the query-key product contracts "
                f"d_k={d_k}, which calls for 1/sqrt({d_k}) = {expected:.4g} (a model that folds the scaling "
                "into its weights' initialization, as T5 does, is fine)",
                hint=f"divide the scores by math.sqrt({d_k}) (the per-head width, not d_model)",
            )
