"""Causal masks, read from their pattern: rows whose visible keys form a prefix (or a suffix)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import torch

from ..blocks import MaskUse
from .patterns import Pattern, masks_before, pattern_of


@dataclass
class CausalShape:
    leaks: bool  # some query sees a later key
    hides_diagonal: bool  # some query cannot see its own position


def causal_shape(pattern: Pattern) -> CausalShape | None:
    """How a triangular mask over one sequence treats the future and the diagonal; None if not triangular."""
    if not pattern.same_sequence or not (pattern.varies_along(2) and pattern.varies_along(3)):
        return None
    hidden = pattern.hidden
    size_q, size_k = hidden.shape[-2:]
    if size_q != size_k:
        return None
    padding_keys = hidden.all(dim=2, keepdim=True)  # keys hidden from every query: padding
    relevant = hidden | padding_keys
    suffix = bool((relevant[..., 1:] | ~relevant[..., :-1]).all())  # hidden keys form a suffix of each row
    prefix = bool((relevant[..., :-1] | ~relevant[..., 1:]).all())  # hidden keys form a prefix of each row
    if not (suffix or prefix):
        return None
    later = torch.ones(size_q, size_k, dtype=torch.bool).triu(1)
    visible = ~hidden
    leaks = bool((visible & later).any())
    diagonal = torch.eye(size_q, dtype=torch.bool)
    real_diagonal = diagonal & ~padding_keys
    hides_diagonal = bool((hidden & real_diagonal).any())
    return CausalShape(leaks, hides_diagonal)


def causal_masks(analysis) -> Iterator[tuple[MaskUse, CausalShape]]:
    """Every triangular mask applied to the scores, with how it treats the future and the diagonal."""
    for block in analysis.blocks:
        for use in masks_before(block):
            pattern = pattern_of(analysis, block, use)
            shape = causal_shape(pattern) if pattern is not None else None
            if shape is not None:
                yield use, shape
