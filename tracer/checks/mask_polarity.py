"""mask-polarity: a mask that hides the real tokens and shows the padding has its convention inverted."""

from __future__ import annotations

from typing import Iterable

import torch

from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check
from .patterns import masks_before, pattern_of


class MaskPolarity(Check):
    code = "mask-polarity"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        padding = analysis.padding
        for block in analysis.blocks:
            for use in masks_before(block):
                pattern = pattern_of(analysis, block, use)
                if pattern is None or not pattern.has_batch or pattern.key_seq not in padding:
                    continue
                pad = padding[pattern.key_seq].pad
                hidden_keys = pattern.hidden.all(dim=2).all(dim=1)  # (batch, T_k): hidden from every query
                try:
                    hidden_keys, pad = torch.broadcast_tensors(hidden_keys, pad)
                except RuntimeError:
                    continue
                if not bool(hidden_keys.any()):
                    continue
                if bool((hidden_keys == ~pad).all()):
                    told = padding[pattern.key_seq].told
                    yield self.at(
                        analysis, use.event,
                        f"the mask hides the real tokens and shows the padding (padding known from {told}): "
                        "its convention is inverted",
                        hint="nn.MultiheadAttention's key_padding_mask wants True = ignore, so pass "
                             "attention_mask == 0; SDPA's boolean attn_mask wants True = attend",
                        related=construction(analysis, use.mask.vid, "mask built here", use.event) if use.mask else (),
                    )
