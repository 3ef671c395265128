"""mask-after-softmax: zeroing weights after normalization leaves rows that no longer sum to 1."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
import torch

from ..evidence.masks import hidden_union, masks_before, pattern_of


class MaskAfterSoftmax(Check):
    code = "mask-after-softmax"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            if block.renormalized:
                continue
            if block.normalized_axis is not None and analysis.table.get(block.normalized_axis).kind == "batch":
                continue  # rows across samples are softmax-axis's finding, the cause of whatever a mask does to them
            for use in block.masks:
                if not use.after:
                    continue
                pattern = pattern_of(analysis, block, use)
                if pattern is not None and not pattern.varies_along(_normalized_dim(analysis.table, block, pattern)):
                    continue  # whole rows zeroed (e.g. rows with no valid key): the others still sum to 1
                if pattern is not None and _already_hidden(analysis, block, pattern):
                    continue  # zeroes weights the softmax already made 0 (ESPnet's masked_fill(mask, 0.0))
                yield self.at(
                    analysis, use.event,
                    "attention weights are masked after the softmax without renormalizing: the visible "
                    "weights of a row no longer sum to 1",
                    hint="mask the scores before the softmax: scores.masked_fill(mask, float('-inf'))",
                )


def _normalized_dim(table, block, pattern) -> int:
    """The pattern's dim the softmax normalized (1 rest, 2 query, 3 key): a mask constant along it keeps
    each row whole or drops it whole, whichever axis the softmax ran over (capsules competing for an item)."""
    placement, normalized = pattern.placement, block.normalized_axis
    if placement is None or normalized is None or table.same(normalized, placement.key_axis):
        return 3
    if placement.query_axis is not None and table.same(normalized, placement.query_axis):
        return 2
    return 1 if any(table.same(normalized, axis) for axis in placement.rest_axes) else 3


def _already_hidden(analysis, block, after) -> bool:
    """Whether every weight the after-mask zeroes was hidden before the softmax already."""
    before = [pattern_of(analysis, block, use) for use in masks_before(block)]
    hidden = hidden_union([pattern for pattern in before if pattern is not None])
    if hidden is None:
        return False
    try:
        zeroed, hidden = torch.broadcast_tensors(after.hidden, hidden)
    except RuntimeError:
        return False
    return not bool((zeroed & ~hidden).any())
