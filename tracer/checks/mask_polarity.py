"""mask-polarity: a mask that hides the real tokens and shows the padding has its convention inverted.

Padding comes from evidence (pad ids, mask inputs, runs at one end of the ids). Without it,
the mask's own pattern can still convict it: a key padding mask that hides *every* key of
one sample (no real sample is empty) while, in the others, it shows only a run of keys at
one end of the sequence (where padding sits) is the right mask with its polarity flipped.
"""

from __future__ import annotations

import linecache
from typing import Iterable

import torch

from ..evidence.padding import image_border, image_padding, runs_at_an_end
from ..evidence.provenance import construction
from ..findings import Finding
from .base import Check
from ..evidence.masks import QUERY, REST, masks_before, pattern_of

# The fix, in the terms of how the mask was applied.
HINTS = {
    "fill": "masked_fill hides the places where its mask is True: pass the padding (~mask), not the real tokens",
    "where": "torch.where(cond, scores, fill) keeps the scores where cond is True: cond must be True at the real "
             "tokens (swap the branches, or pass ~cond)",
    "additive": "an additive mask is 0 at the real tokens and very negative at the padding: "
                "(1 - mask) * large_negative, not mask * large_negative",
    "multiply": "multiply by 1 at the real tokens and 0 at the padding (pass 1 - mask)",
    "attn_mask": "nn.MultiheadAttention's key_padding_mask wants True = ignore, so pass attention_mask == 0; "
                 "SDPA's boolean attn_mask wants True = attend",
}


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
                known = analysis.padding.get(pattern.key_seq) or image_padding(analysis, unread.shape[0], _grid(analysis, pattern))
                told = _inverted(unread, known.pad) if known is not None else \
                    _inverted_by_shape(unread, _grid(analysis, pattern))
                if told is None:
                    continue
                why = f"padding known from {known.told}" if known is not None else told
                yield self.at(
                    analysis, use.event,
                    f"the mask hides the real tokens and shows the padding ({why}): its convention is inverted",
                    hint=_hint(analysis, use),
                    related=construction(analysis, use.mask.vid, "mask built here", use.event) if use.mask else (),
                )


# How each kind of mask use is spelled on the user's line when the user applied the mask themselves.
SPELLINGS = {"fill": ("masked_fill",), "where": ("where",), "additive": ("+", "baddbmm"), "multiply": ("*",)}


def _hint(analysis, use) -> str:
    """The fix in the terms the user wrote: their own masked_fill, where or arithmetic, else the mask
    argument of a library call (nn.MultiheadAttention turns its boolean mask into an additive one)."""
    event = analysis.recording.events[use.event]
    linecache.checkcache(event.file)
    written = linecache.getline(event.file, event.line)
    own = any(spelling in written for spelling in SPELLINGS.get(use.kind, ())) and "mask=" not in written
    return HINTS[use.kind] if own else HINTS["attn_mask"]


def _inverted(unread: torch.Tensor, pad: torch.Tensor) -> str | None:
    """"" when the keys the mask hides are exactly the real tokens of known padding, else None."""
    try:
        unread, pad = torch.broadcast_tensors(unread, pad)
    except RuntimeError:
        return None
    return "" if bool(unread.any()) and bool((unread == ~pad).all()) else None


def _grid(analysis, pattern) -> tuple[int, int] | None:
    """(rows, columns) when the keys are a flattened 2-D grid (an image's or feature map's pixels)."""
    if pattern.placement is None:
        return None
    table = analysis.table
    record = table.get(table.base_of(pattern.placement.key_axis))
    parts = [table.get(part) for part in record.parts]
    if len(parts) == 2 and all(part.kind == "spatial" for part in parts):
        return parts[0].size, parts[1].size
    return None


def _inverted_by_shape(unread: torch.Tensor, grid: tuple[int, int] | None) -> str | None:
    """With no padding known: a sample left with no key at all, while the others see only where
    padding sits: a run of keys at one end of the sequence, or an image's last rows and columns."""
    if unread.shape[0] < 2 or unread.shape[-1] < 2:
        return None
    empty = unread.all(dim=-1)
    if not bool(empty.any()) or bool(empty.all()):
        return None
    shown = ~unread[~empty]
    if bool(shown.all(dim=-1).any()):
        return None  # some sample sees every key: nothing says which tokens are padding
    if not (runs_at_an_end(shown) or (grid is not None and image_border(shown.reshape(-1, *grid)))):
        return None
    samples = ", ".join(str(int(b)) for b in empty.nonzero()[:, 0][:6])
    return (f"it hides every key of sample {samples} and shows the others only a run of keys at one end of the "
            "sequence, where padding sits")
