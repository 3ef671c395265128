"""mask-axis: a key-padding mask must vary over the keys, not over the queries, heads or batch."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .patterns import masks_before, pattern_of


class MaskAxis(Check):
    code = "mask-axis"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            for use in masks_before(block):
                pattern = pattern_of(analysis, block, use)
                if pattern is None:
                    continue
                if pattern.varies_along(2) and not pattern.varies_along(3):
                    yield self.at(
                        analysis, use.event,
                        "the mask varies over the query axis but not over the key axis: it hides whole query "
                        "rows instead of padding keys, and every query still reads the padding",
                        hint="broadcast a (B, T_k) padding mask as mask[:, None, None, :] against (B, H, T_q, T_k)",
                    )
                elif pattern.varies_along(1) and _is_boolean(use):
                    yield self.at(
                        analysis, use.event,
                        "the mask varies over the head axis: a padding mask laid out (1, B, 1, T) lines its "
                        "batch dimension up with the heads",
                        hint="broadcast a (B, T_k) padding mask as mask[:, None, None, :] against (B, H, T_q, T_k)",
                    )


def _is_boolean(use) -> bool:
    return use.kind in ("fill", "where") or (use.mask is not None and use.mask.dtype == "bool")
