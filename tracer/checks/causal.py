"""Causal masks, read row by row: where each real query's view of the keys ends.

For every query that is not padding, the last key it may read (`hi`) is compared with its
own position (query t is key t + offset: 0 in self-attention, P when P cached or memory
keys come first). A causal mask makes `hi` follow the query in lockstep; rows where it
does are judged: past the query is a leak, short of it hides the diagonal. Rows where `hi`
stands still (a bidirectional prefix, padding, a plain key mask) are not causal and not
judged, so prefix-LM, sliding-window, memory and cache masks read the same as a plain one.
A mask whose *first* visible key follows the query instead (each query sees itself and the
future) is causal the wrong way round: a leak.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import torch

from ..blocks import MaskUse
from ..evidence.provenance import built_before, construction, triangle_call
from ..evidence.sources import ADDITIVE_HIDING
from .mask_parts import mask_parts
from ..evidence.masks import (BATCH, KEY, QUERY, Pattern, alike_rows, lines_reading_ahead, masks_before,
                               padded_keys, padded_queries, pattern_of, undirected)


@dataclass
class CausalShape:
    leaks: bool  # some query sees a later key
    hides_diagonal: bool  # some query cannot see its own position
    shift: int  # how far the view of the judged rows ends past their own position (+1: the next key)
    symmetric: bool = False  # a window reaching as far ahead as behind, judged because the model is a language model


def causal_shape(analysis, pattern: Pattern) -> CausalShape | None:
    """How a mask over one sequence treats the future and the diagonal; None if it is not causal."""
    if pattern.offset is None:
        return None
    hidden = pattern.hidden
    size_q, size_k = hidden.shape[-2:]
    visible = ~hidden & ~padded_keys(analysis, pattern)
    if size_k > pattern.offset + size_q:  # keys joined after the sequence's own (a bias slot): no positions
        visible, size_k = visible[..., :pattern.offset + size_q], pattern.offset + size_q
    last = (size_k - 1) - visible.flip(-1).to(torch.uint8).argmax(-1)
    first = visible.to(torch.uint8).argmax(-1)
    # a causal row sees one run of keys (a prefix, or a window); scattered keys (Swin's regions) are not causal
    contiguous = visible.sum(-1) == last - first + 1
    real_queries = ~padded_queries(analysis, pattern)
    symmetric = _undirected(visible, real_queries, pattern.offset)
    if symmetric and not predicts_its_tokens(analysis):
        return None
    rows = visible.any(-1) & contiguous & real_queries
    position = torch.arange(size_q) + pattern.offset
    ahead = last - position
    following = _lockstep(last, rows)
    if bool(following.any()):
        ahead, following = torch.broadcast_tensors(ahead, following)
        shift = ahead[following]
        leaks, hides = bool((shift > 0).any()), bool((shift < 0).any())
        worst = int(shift.max()) if leaks else int(shift.min())
        if _reaches_beyond(visible, real_queries, position, int(shift.max())):
            return None  # scattered keys further ahead than any staircase row sees: no causal mask (Big Bird)
        return CausalShape(leaks, hides and not leaks, worst, symmetric)
    reversed_rows = _lockstep(first, rows) & (first >= position) & (last > position)
    if bool(reversed_rows.any()):
        ahead, reversed_rows = torch.broadcast_tensors(ahead, reversed_rows)
        return CausalShape(True, False, int(ahead[reversed_rows].max()))
    return None


def _reaches_beyond(visible: torch.Tensor, real_queries: torch.Tensor, position: torch.Tensor, reach: int) -> bool:
    """Whether some real query after the leading alike rows (a prefix's) sees a key further ahead than
    `reach`, the farthest the staircase rows see: random or global keys scattered over the future
    (Big Bird's), which no causal mask, right or off by some keys, shows."""
    size_k = visible.shape[-1]
    tables = visible.reshape(-1, *visible.shape[-2:])
    real = torch.broadcast_to(real_queries, visible.shape[:-1]).reshape(-1, visible.shape[-2])
    ahead = torch.arange(size_k)[None, :] > (position[:, None] + reach)
    for table, rows in zip(tables, real):
        prefix = alike_rows(table)
        beyond = table & ahead & rows[:, None]
        if bool(beyond[prefix:].any()):
            return True
    return False


def predicts_its_tokens(analysis) -> bool:
    """Whether the model outputs, at every position of its token input, scores over that input's
    vocabulary: a language model. In one, a window that shows a query the keys after it is a leak,
    however symmetric; elsewhere (an encoder's local attention, a graph) a symmetric mask is fine."""
    if "predicts its tokens" not in analysis.shared:
        analysis.shared["predicts its tokens"] = _predicts_its_tokens(analysis)
    return analysis.shared["predicts its tokens"]


def _predicts_its_tokens(analysis) -> bool:
    table, recording = analysis.table, analysis.recording
    for event in recording.ops("embedding"):
        if len(event.inputs) < 2 or recording.sources.get(event.inputs[0].vid) is None:
            continue  # ids straight from an input
        vocabulary = event.inputs[1].shape[0]
        positions = {table.base_of(axis) for axis in analysis.axes_of(event.inputs[0])
                     if table.get(axis).kind == "seq"}
        for output in recording.outputs:
            axes = analysis.axes_of(output)
            if len(output.shape) >= 2 and output.shape[-1] == vocabulary and \
                    any(table.base_of(axis) in positions for axis in axes[:-1]):
                return True
    return False


def _undirected(visible: torch.Tensor, real_queries: torch.Tensor, offset: int) -> bool:
    """Whether the mask has no direction (`evidence.masks.undirected`): then it is no causal mask at all."""
    size_q, size_k = visible.shape[-2:]
    if offset != 0 or size_q != size_k:
        return False
    return undirected(visible, real_queries)


def _lockstep(bound: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """Rows whose bound moves by exactly one from the previous (or to the next) real row."""
    step = (bound[..., 1:] == bound[..., :-1] + 1) & rows[..., 1:] & rows[..., :-1]
    following = torch.zeros(torch.broadcast_shapes(bound.shape, rows.shape), dtype=torch.bool)
    following[..., 1:] |= step
    following[..., :-1] |= step
    return following


def causal_masks(analysis) -> list[tuple[MaskUse, CausalShape, CausalAdvice]]:
    """Every causal mask applied to the scores, how it treats the future and the diagonal, and advice
    (read once per analysis: causal-leak and causal-diagonal both ask)."""
    if "causal" not in analysis.shared:
        analysis.shared["causal"] = list(_causal_masks(analysis))
    return analysis.shared["causal"]


def _causal_masks(analysis) -> Iterator[tuple[MaskUse, CausalShape, CausalAdvice]]:
    for block in analysis.blocks:
        for use in masks_before(block) + _misaligned_is_causal(block):
            pattern = pattern_of(analysis, block, use)
            shape = causal_shape(analysis, pattern) if pattern is not None and pattern.hidden.shape[QUERY] > 1 else None
            if shape is not None and (shape.leaks or shape.hides_diagonal):
                yield use, shape, (IS_CAUSAL_ADVICE if use.kind == "is_causal" else
                                   advice(analysis, block, use, shape, pattern))


def _misaligned_is_causal(block) -> list[MaskUse]:
    """SDPA's `is_causal` where queries and keys differ in number: torch aligns its triangle at the
    top left, which is right only when they are the same positions (not with cached keys first)."""
    shape = block.table_shape
    return [use for use in block.masks if use.kind == "is_causal" and len(shape) >= 2 and shape[-1] != shape[-2]]


@dataclass
class CausalAdvice:
    hint: str
    related: tuple
    where: str  # "" or " (query t is key t + 3: 3 keys come first)"


IS_CAUSAL_ADVICE = CausalAdvice(
    "is_causal=True aligns its triangle at the top left: with fewer queries than keys (keys cached first), pass "
    "attn_mask=torch.ones(Tq, Tk, dtype=torch.bool).tril(Tk - Tq) instead", (),
    " (scaled_dot_product_attention's is_causal with fewer queries than keys: query t sees keys 0..t only)")


def advice(analysis, block, use: MaskUse, shape: CausalShape, pattern: Pattern) -> CausalAdvice:
    """A hint in the user's own spelling (tril or triu, keep- or hide-mask) and where the mask was built."""
    offset = pattern.offset or 0
    where = f" (query t is key t + {offset}: {offset} keys come first)" if offset else ""
    part = _causal_part(analysis, block, use)
    if part is None:
        return CausalAdvice(_generic_hint(offset), (), where)
    prefer = lines_reading_ahead(analysis, part.vid) if shape.leaks else frozenset()
    related = construction(analysis, part.vid, "causal mask built here", use.event, prefer=prefer)
    found = _triangle(analysis, part, related + _inputs_built(analysis, part.vid))
    if found is not None and found[3] is not None and found[3] not in related:
        related = (found[3], *related[:1])  # the triangle, made by build()'s helper, first
    if found is None or pattern.placement is None:
        return CausalAdvice(_generic_hint(offset), related, where)
    op, diagonal, vid, _ = found
    kept = analysis.recording.values.get(vid)
    drawn = pattern.placement.canonical(kept) if kept is not None else None
    marks_hidden = _marks_hidden(drawn, pattern.hidden) if drawn is not None else None
    written = f", not diagonal={diagonal}" if diagonal is not None else ""
    if op == "tril" and marks_hidden is False:
        hint = f"keep keys j <= i{_plus(offset)}: torch.tril(ones, diagonal={offset}){written}"
    elif op == "triu" and marks_hidden is True:
        hint = f"hide keys j > i{_plus(offset)}: torch.triu(ones, diagonal={offset + 1}){written}"
    elif op == "triu" and marks_hidden is False:
        hint = (f"this keep-mask is the upper triangle (the future): keep the lower one, "
                f"torch.tril(ones, diagonal={offset}), or hide torch.triu(ones, diagonal={offset + 1})")
    elif op == "tril" and marks_hidden is True:
        hint = (f"this hide-mask is the lower triangle (the past): hide the upper one, "
                f"torch.triu(ones, diagonal={offset + 1}), or keep torch.tril(ones, diagonal={offset})")
    else:
        hint = _generic_hint(offset)
    return CausalAdvice(hint, related, where)


def _triangle(analysis, part, related) -> tuple[str, int | None, int, object] | None:
    """(tril or triu, its diagonal, the value it made, the note of its line) behind a causal part: a
    recorded op, or a call on a line that built a buffer in `__init__` or an input in `build()` (then
    the value is the buffer or input as the forward read it)."""
    events = analysis.recording.events
    for index in part.events:
        if events[index].op in ("tril", "triu"):
            return events[index].op, events[index].arg(1, "diagonal", 0), events[index].outputs[0].vid, None
    for place in related:
        written = triangle_call(place.file, place.line)
        if written is not None and part.events:
            return written[0], written[1], events[part.events[-1]].outputs[0].vid, place
    return None


def _inputs_built(analysis, vid: int) -> tuple:
    """Every line build() made the inputs behind a value with (`tracer.origins`), for a triangle there."""
    found = []
    for current in analysis.flow.ancestors(vid, limit=64):
        source = analysis.recording.sources.get(current)
        if source is not None and source.kind == "input":
            found.extend(built_before(analysis, source, every=True))
    return tuple(found)


def _generic_hint(offset: int) -> str:
    return f"hide exactly the keys j > i{_plus(offset)} (keep j <= i{_plus(offset)})"


def _plus(offset: int) -> str:
    return f" + {offset}" if offset else ""


def _causal_part(analysis, block, use: MaskUse):
    parts = [part for part in mask_parts(analysis, block, use) if part.pattern is not None]
    structural = [part for part in parts if part.varies(QUERY) and part.varies(KEY) and not part.varies(BATCH)]
    return structural[0] if structural else (parts[0] if len(parts) == 1 else None)


def _marks_hidden(part: torch.Tensor, hidden: torch.Tensor) -> bool | None:
    """True if the part's set cells are the hidden ones, False if they are the kept ones."""
    marked = part < ADDITIVE_HIDING if part.is_floating_point() and bool((part < ADDITIVE_HIDING).any()) else part != 0
    marked, hidden = torch.broadcast_tensors(marked, hidden)
    if not bool((marked & ~hidden).any()):
        return True
    if not bool((~marked & ~hidden).any()):
        return False
    return None
