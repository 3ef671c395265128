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

from ..evidence.padding import Padding
from ..evidence.provenance import construction
from ..evidence.sources import is_mask_like
from ..findings import Finding
from .base import Check
from .patterns import QUERY, REST, masks_before, pattern_of

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
                known = analysis.padding.get(pattern.key_seq) or _image_padding(analysis, unread, _grid(analysis, pattern))
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


def _image_padding(analysis, unread: torch.Tensor, grid: tuple[int, int] | None) -> Padding | None:
    """Padding of flattened image keys from a (B, rows, columns) 0/1 or boolean mask input (an image
    processor's `pixel_mask`): the value that only ever fills some last rows and columns of each
    image is the padding, whatever the input is called."""
    if grid is None:
        return None
    for source in analysis.recording.sources.values():
        value = analysis.recording.values.get(source.meta.vid)
        if source.kind != "input" or value is None or tuple(value.shape) != (unread.shape[0], *grid):
            continue
        if not is_mask_like(source, value):
            continue
        readings = [pad for pad in (value == 0, value != 0)
                    if bool(pad.any()) and not bool(pad.flatten(1).all(dim=1).any()) and _image_border(pad)]
        if len(readings) == 1:
            return Padding(readings[0].flatten(1), f"the image mask input {source.name}")
    return None


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
    if not (_runs_at_an_end(shown) or (grid is not None and _image_border(shown.reshape(-1, *grid)))):
        return None
    samples = ", ".join(str(int(b)) for b in empty.nonzero()[:, 0][:6])
    return (f"it hides every key of sample {samples} and shows the others only a run of keys at one end of the "
            "sequence, where padding sits")


def _runs_at_an_end(shown: torch.Tensor) -> bool:
    at_end = shown.flip(-1).int().cumprod(-1).flip(-1).bool()
    at_start = shown.int().cumprod(-1).bool()
    return bool((at_end == shown).all()) or bool((at_start == shown).all())


def _image_border(shown: torch.Tensor) -> bool:
    """Each (rows, columns) grid shows exactly some last rows and some last columns: image padding."""
    rows, columns = shown.all(dim=2), shown.all(dim=1)
    border = rows[:, :, None] | columns[:, None, :]
    return bool((border == shown).all()) and _runs_at_an_end(rows) and _runs_at_an_end(columns)
