"""mask-polarity: a mask that hides the real tokens and shows the padding has its convention inverted.

Padding comes from evidence (pad ids, mask inputs, runs at one end of the ids). Without it,
the mask's own pattern can still convict it: a key padding mask that hides *every* key of
one sample (no real sample is empty) while, in the others, it shows only a run of keys at
one end of the sequence (where padding sits) is the right mask with its polarity flipped.
"""

from __future__ import annotations

from typing import Iterable

import torch

from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check
from .patterns import QUERY, REST, masks_before, pattern_of

HINT = ("nn.MultiheadAttention's key_padding_mask wants True = ignore, so pass attention_mask == 0; "
        "SDPA's boolean attn_mask wants True = attend")


class MaskPolarity(Check):
    code = "mask-polarity"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            for use in masks_before(block):
                pattern = pattern_of(analysis, block, use)
                if pattern is None or not pattern.has_batch:
                    continue
                unread = pattern.hidden.all(dim=QUERY).all(dim=REST)  # (batch, T_k): hidden from every query
                known = analysis.padding.get(pattern.key_seq)
                told = _inverted(unread, known.pad) if known is not None else _inverted_by_shape(unread)
                if told is None:
                    continue
                why = f"padding known from {known.told}" if known is not None else told
                yield self.at(
                    analysis, use.event,
                    f"the mask hides the real tokens and shows the padding ({why}): its convention is inverted",
                    hint=HINT,
                    related=construction(analysis, use.mask.vid, "mask built here", use.event) if use.mask else (),
                )


def _inverted(unread: torch.Tensor, pad: torch.Tensor) -> str | None:
    """"" when the keys the mask hides are exactly the real tokens of known padding, else None."""
    try:
        unread, pad = torch.broadcast_tensors(unread, pad)
    except RuntimeError:
        return None
    return "" if bool(unread.any()) and bool((unread == ~pad).all()) else None


def _inverted_by_shape(unread: torch.Tensor) -> str | None:
    """With no padding known: a sample left with no key at all, while the others see only a run of
    keys at one end of the sequence."""
    if unread.shape[0] < 2 or unread.shape[-1] < 2:
        return None
    empty = unread.all(dim=-1)
    if not bool(empty.any()) or bool(empty.all()):
        return None
    shown = ~unread[~empty]
    if bool(shown.all(dim=-1).any()):
        return None  # some sample sees every key: nothing says which tokens are padding
    at_end = shown.flip(-1).int().cumprod(-1).flip(-1).bool()
    at_start = shown.int().cumprod(-1).bool()
    if not (bool((at_end == shown).all()) or bool((at_start == shown).all())):
        return None
    samples = ", ".join(str(int(b)) for b in empty.nonzero()[:, 0][:6])
    return (f"it hides every key of sample {samples} and shows the others only a run of keys at one end of the "
            "sequence, where padding sits")
