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
            for use in block.masks:
                if not use.after:
                    continue
                pattern = pattern_of(analysis, block, use)
                if pattern is not None and not pattern.varies_along(3):
                    continue  # whole rows zeroed (e.g. rows with no valid key): the others still sum to 1
                if pattern is not None and _already_hidden(analysis, block, pattern):
                    continue  # zeroes weights the softmax already made 0 (ESPnet's masked_fill(mask, 0.0))
                yield self.at(
                    analysis, use.event,
                    "attention weights are masked after the softmax without renormalizing: the visible "
                    "weights of a row no longer sum to 1",
                    hint="mask the scores before the softmax: scores.masked_fill(mask, float('-inf'))",
                )


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
