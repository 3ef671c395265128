"""mask-axis: a padding mask must vary over the keys, not over the queries, heads or batch.

Judged part by part: a combined mask (padding AND causal) is taken apart along its
construction, so a padding part laid along the queries is found even when the causal part
makes the whole mask vary along the keys too. A pair mask (query padding AND key padding)
is fine: its key part hides the padded keys. Padding that differs between the heads of one
sample follows the wrong batch/head order (a per-head mask tiled with `repeat`).
"""

from __future__ import annotations

from typing import Iterable

from ..evidence.provenance import construction, laid_out
from ..findings import Finding
from .base import Check
from .mask_parts import mask_parts
from ..evidence.masks import BATCH, KEY, QUERY, REST, masks_before, pattern_of, rest_only_heads, varies

HINT = "broadcast a (B, Tk) padding mask as mask[:, None, None, :] against (B, H, Tq, Tk)"


class MaskAxis(Check):
    code = "mask-axis"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for block in analysis.blocks:
            for use in masks_before(block):
                pattern = pattern_of(analysis, block, use)
                if pattern is None:
                    continue
                finding = (self._misplaced_dims(analysis, block, use) or self._along_queries(analysis, block, use, pattern)
                           or self._across_heads(analysis, use, pattern))
                if finding is not None:
                    yield finding

    def _misplaced_dims(self, analysis, block, use) -> Finding | None:
        """A mask whose own batch axis lies on the scores' key or query dim: a (T, B) mask passed where
        (B, T) is wanted, which torch accepts without a word when T == B."""
        if use.mask is None:
            return None
        table = analysis.table
        own = analysis.axes_of(use.mask)
        sequence_axes = {name: axis for name, axis in (("key", block.key_axis), ("query", block.query_axis))
                         if axis is not None}
        for axis, on in zip(reversed(own), reversed(use.axes)):
            record = table.get(axis)
            if record.kind != "batch" or record.size < 2 or record.parts:
                continue
            lies_on = next((name for name, seq_axis in sequence_axes.items() if table.same(on, seq_axis)), None)
            if lies_on is not None and not table.same(axis, on):
                return self.at(
                    analysis, use.event,
                    f"the mask's batch axis lies on the {lies_on} axis of the scores (its dims are in the wrong "
                    f"order: a (T, B) mask where (B, T) is wanted, which torch accepts because T = B = {record.size})",
                    hint="transpose the mask to (batch, positions), e.g. mask.t() or mask.transpose(0, 1)",
                    related=construction(analysis, use.mask.vid, "mask built here", use.event),
                )
        return None

    def _along_queries(self, analysis, block, use, pattern) -> Finding | None:
        parts = [part for part in mask_parts(analysis, block, use) if part.pattern is not None]
        if len(parts) > 1:
            rows = [part for part in parts if part.along_queries_only and _padding_like(analysis, part)]
            if not rows or any(part.along_keys_only or part.varies(BATCH) and part.varies(KEY) for part in parts):
                return None
            part = rows[0]
            built = construction(analysis, part.vid, "the query-side mask built here", use.event)
            return self.at(
                analysis, use.event,
                "the padding part of this combined mask varies over the query axis but not over the key axis: it "
                "hides whole query rows instead of padding keys, and the real queries still read the padding "
                "wherever the other parts let them",
                hint=HINT, related=built,
            )
        if pattern.varies_along(QUERY) and not pattern.varies_along(KEY):
            related = () if use.mask is None else _notes(
                laid_out(analysis, use.mask.vid, "the mask laid along the query axis here", use.event),
                construction(analysis, use.mask.vid, "mask built here", use.event))
            return self.at(
                analysis, use.event,
                "the mask varies over the query axis but not over the key axis: it hides whole query "
                "rows instead of padding keys, and every query still reads the padding",
                hint=HINT, related=related,
            )
        return None

    def _across_heads(self, analysis, use, pattern) -> Finding | None:
        unread = pattern.hidden.all(dim=QUERY)  # (batch, rest, Tk): keys no query of that slice reads
        if not varies(unread, REST) or pattern.hidden.shape[REST] == 1 or not rest_only_heads(analysis.table, pattern):
            return None
        per_sample = "differs between the heads of one sample" if pattern.hidden.shape[BATCH] > 1 \
            else "varies over the head axis"
        if _head_major(analysis, use):
            order = ("the scores are head-major (H·B, as a view of (H, B, ...) makes them), so a per-head mask must "
                     "repeat the whole batch once per head")
            hint = ("expand the padding mask for head-major scores with repeat: mask.repeat(H, 1) for (B, T), "
                    "mask.repeat(H, 1, 1) for (B, 1, T); not repeat_interleave")
        else:
            order = ("a per-head (B*H, T, T) mask must be batch-major, as repeat_interleave builds it; a (1, B, 1, T) "
                     "layout lines the batch up with the heads")
            hint = "expand a (B, T) padding mask per head with mask.repeat_interleave(H, dim=0), not mask.repeat(H, 1, 1)"
        return self.at(
            analysis, use.event,
            f"the padding hidden by this mask {per_sample}: the mask's batch and head order does not match "
            f"the scores' ({order})",
            hint=hint,
            related=construction(analysis, use.mask.vid, "mask built here", use.event) if use.mask else (),
        )


def _notes(first: tuple, then: tuple) -> tuple:
    """`first`'s notes, then `then`'s at other lines."""
    places = {(note.file, note.line) for note in first}
    return first + tuple(note for note in then if (note.file, note.line) not in places)


def _padding_like(analysis, part) -> bool:
    """Whether a mask part may be padding: it differs between samples or comes from an input. A rule
    over the positions alone (a prefix LM's `query < prefix`) is the same for every sample: no padding."""
    if part.varies(BATCH):
        return True
    sources = analysis.recording.sources
    return any(getattr(sources.get(vid), "kind", None) == "input"
               for vid in analysis.flow.ancestors(part.vid, limit=ANCESTRY))


ANCESTRY = 64  # values looked through for an input behind a mask part


def _head_major(analysis, use) -> bool:
    """Whether the scores' merged batch·heads axis has the heads outside the batch (H·B)."""
    table = analysis.table
    for axis in use.axes:
        parts = [table.get(part).kind for part in table.get(axis).parts]
        if "batch" in parts and "head" in parts:
            return parts.index("head") < parts.index("batch")
    return False

