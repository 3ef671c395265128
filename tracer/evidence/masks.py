"""Mask patterns in one canonical layout, so the mask checks never care how a model lays out heads.

A mask's hidden-key pattern is brought to `(batch, rest, T_q, T_k)`: merged axes such as
`B·H` are split back into their parts, the batch dim is found by its axis, the query and
key dims by their roles, and everything else (heads) is flattened into `rest`. The same
`Placement` brings any tensor that broadcasts onto the score table (a part of a combined
mask, the model's known padding) into that layout, so its parts can be judged one by one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from ..blocks import AttentionBlock, MaskUse

if TYPE_CHECKING:
    from ..analysis import Analysis

BATCH, REST, QUERY, KEY = range(4)


@dataclass
class Placement:
    """Where the batch, query and key dims of one mask use's table are, and how to reorder them."""

    sizes: list[int]  # the table's dims, merged batch·heads axes split into their parts
    order: list[int]  # permutation of `sizes` to (batch?, rest..., query?, key)
    batch: int | None
    rest: list[int]
    query: int | None  # None: one query per row of the table (additive attention of one decoder step)
    key: int
    table_shape: tuple[int, ...]
    query_axis: int | None  # the table's query and key axes
    key_axis: int
    rest_axes: tuple[int, ...] = ()  # the axes of the rest dims (heads; the rows of a pair grid)

    def canonical(self, value: torch.Tensor) -> torch.Tensor | None:
        """`value` (broadcastable onto the table) as (batch, rest, T_q, T_k), broadcast dims kept at 1."""
        rank = len(self.table_shape)
        if value.dim() > rank:
            return None
        value = value.reshape((1,) * (rank - value.dim()) + tuple(value.shape))
        # broadcasts onto the table exactly (torch.broadcast_shapes, in Python, costs ~70 µs a call)
        if any(size != full and size != 1 for size, full in zip(value.shape, self.table_shape)):
            return None
        split = []
        for size, full in zip(value.shape, self._split_widths()):
            split.extend(full if size != 1 else [1] * len(full))
        value = value.reshape(split).permute(self.order)
        if self.query is None:
            value = value.unsqueeze(-2)  # the one query
        shape = value.shape
        batch = shape[0] if self.batch is not None else 1
        rest = math.prod(shape[1 if self.batch is not None else 0:-2])
        return value.reshape(batch, rest, shape[-2], shape[-1])

    def _split_widths(self) -> list[list[int]]:
        widths, cursor = [], 0
        for size in self.table_shape:
            group, product = [], 1
            while product < size or not group:
                group.append(self.sizes[cursor])
                product *= self.sizes[cursor]
                cursor += 1
            widths.append(group)
        return widths


@dataclass
class Pattern:
    hidden: torch.Tensor  # bool (batch, rest, T_q, T_k), True where hidden; broadcast dims may be 1
    has_batch: bool
    query_seq: str | None
    key_seq: str | None
    same_sequence: bool
    offset: int | None = None  # query t is key t + offset, when queries and keys index one sequence
    placement: Placement | None = None

    def varies_along(self, dim: int) -> bool:
        """True when the pattern is not constant along `dim` (0 batch, 1 rest, 2 query, 3 key)."""
        return varies(self.hidden, dim)


def rest_holds_positions(table, pattern: Pattern) -> bool:
    """Whether a pattern's rest dims hold positions (the rows i of a pair grid attending along j, the
    windows of an image), not only heads: a mask may differ between them as it differs between samples."""
    placement = pattern.placement
    return placement is not None and any(table.get(axis).kind in ("seq", "pos", "spatial")
                                         for axis in placement.rest_axes)


def rest_only_heads(table, pattern: Pattern) -> bool:
    """Whether a pattern's rest dims are heads alone, so that what differs between them differs
    between heads (not between chunks, neighbours or rows of a grid folded in beside them)."""
    placement = pattern.placement
    return placement is not None and all(table.get(axis).kind == "head" or table.get(axis).size == 1
                                         for axis in placement.rest_axes)


def varies(value: torch.Tensor, dim: int) -> bool:
    if value.shape[dim] == 1:
        return False
    first = value.narrow(dim, 0, 1)
    return bool((value != first).any())


def placement_of(analysis: "Analysis", block: AttentionBlock, axes: tuple[int, ...],
                 shape: tuple[int, ...]) -> Placement | None:
    """The canonical placement of a table with these axes, or None if its query and key dims are unknown."""
    table = analysis.table
    sizes, flat = [], []
    for size, axis in zip(shape, axes):
        record = table.get(axis)
        batch_parts = record.kind == "batch" or any(table.get(part).kind == "batch" for part in record.parts)
        if record.parts and batch_parts and math.prod(table.get(p).size for p in record.parts) == size:
            for part in record.parts:
                sizes.append(table.get(part).size)
                flat.append(part)
        else:
            sizes.append(size)
            flat.append(axis)
    key_axes = tuple(a for a in (block.key_axis, *block.contracted_axes, block.normalized_axis) if a is not None)
    key_dim = next((d for k in key_axes for d, a in enumerate(flat) if table.same(a, k)), None)
    if key_dim is None:
        key_dim = next((d for d, a in enumerate(flat) if table.get(a).role == "key"), None)
    if key_dim is None:
        return None
    query_dim = next((d for d, a in enumerate(flat) if d != key_dim and block.query_axis is not None
                      and table.same(a, block.query_axis)), None)
    if query_dim is None:
        query_dim = next((d for d, a in enumerate(flat) if d != key_dim and table.get(a).role == "query"), None)
    if query_dim is None:
        candidates = [d for d, a in enumerate(flat) if d != key_dim and table.get(a).kind in ("seq", "pos")]
        if len(candidates) > 1 or (not candidates and block.query_axis is not None):
            return None
        query_dim = candidates[0] if candidates else None  # none: one query per row (additive attention)
    others = [d for d in range(len(flat)) if d not in (key_dim, query_dim)]
    batch_dims = batch_dims_of(table, flat, others)
    batch_dim = batch_dims[0] if len(batch_dims) == 1 else None
    rest = [d for d in others if d != batch_dim]
    order = ([batch_dim] if batch_dim is not None else []) + rest + ([query_dim] if query_dim is not None else []) \
        + [key_dim]
    return Placement(sizes, order, batch_dim, rest, query_dim, key_dim, tuple(shape),
                     flat[query_dim] if query_dim is not None else None, flat[key_dim], tuple(flat[d] for d in rest))


def batch_dims_of(table, axes, candidates: list[int]) -> list[int]:
    """Which of the `candidates` dims of a value with these axes hold its batch: the named batch,
    else the first axis of unknown meaning (a batch of ids the model built itself)."""
    named = [d for d in candidates if table.get(axes[d]).kind == "batch" and not table.get(axes[d]).parts]
    return named or [d for d in candidates if table.get(axes[d]).kind == "unknown"][:1]


def pattern_of(analysis: "Analysis", block: AttentionBlock, use: MaskUse) -> Pattern | None:
    """The hidden-key pattern of one mask use, or None where it cannot be placed on the table, or
    where it hides nothing at all (a 0/1 mask added as it is: mask-value's finding). Made once per
    analysis: five checks ask for the pattern of every mask use."""
    known = analysis.shared.setdefault("patterns", {})
    key = (id(block), id(use))
    if key not in known:
        known[key] = _pattern_of(analysis, block, use)
    return known[key]


def _pattern_of(analysis: "Analysis", block: AttentionBlock, use: MaskUse) -> Pattern | None:
    if use.hidden is None or len(use.axes) != use.hidden.dim():
        return None
    if use.kind == "additive" and use.fill is not None and use.fill >= 0:
        return None
    placement = placement_of(analysis, block, use.axes, use.shape)
    if placement is None:
        return None
    hidden = placement.canonical(use.hidden)
    if hidden is None:
        return None
    table = analysis.table
    query, key = placement.query_axis, placement.key_axis
    key_base = table.get(table.base_of(key))
    if query is None:
        return Pattern(hidden.bool(), placement.batch is not None, None, key_base.seq or table.get(key).seq, False,
                       None, placement)
    query_base = table.get(table.base_of(query))
    return Pattern(hidden.bool(), placement.batch is not None, query_base.seq or table.get(query).seq,
                   key_base.seq or table.get(key).seq, table.base_of(query) == table.base_of(key),
                   table.alignment(query, key), placement)


def hidden_union(patterns: list[Pattern]) -> torch.Tensor | None:
    """Every key any of these patterns hides (the masks applied before one softmax together), or
    None when their layouts cannot be combined (no conclusion)."""
    hidden = None
    for pattern in patterns:
        try:
            hidden = pattern.hidden if hidden is None else hidden | pattern.hidden
        except RuntimeError:
            return None
    return hidden


def masks_before(block: AttentionBlock) -> list[MaskUse]:
    """Masks applied to the scores, less SDPA's is_causal: torch's own pattern, right by construction."""
    return [use for use in block.masks if not use.after and use.kind != "is_causal"]


def known_padding(analysis: "Analysis", pattern: Pattern, which: str) -> torch.Tensor | None:
    """The model's known padding of the query or key sequence as (batch, 1, T) bool, or None."""
    seq = pattern.query_seq if which == "query" else pattern.key_seq
    padding = analysis.padding.get(seq) if seq else None
    length = pattern.hidden.shape[QUERY if which == "query" else KEY]
    if padding is None or not pattern.has_batch or padding.pad.shape[1] != length:
        return None
    if pattern.hidden.shape[BATCH] not in (1, padding.pad.shape[0]):
        return None
    return padding.pad[:, None, :]


def padded_keys(analysis: "Analysis", pattern: Pattern) -> torch.Tensor:
    """Keys that are padding, as (batch, rest, 1, T_k): known padding, plus each sample's run of
    keys at the end (or start) of the sequence that no query of that sample may read, where
    that run differs between samples (a causal mask's unread last key is the same in all)."""
    hidden = pattern.hidden
    unread = hidden.all(dim=QUERY, keepdim=True)
    run = _end_run(unread)
    run = run & ~run.all(dim=BATCH, keepdim=True)
    known = known_padding(analysis, pattern, "key")
    if known is not None:
        run = run | known[:, None]
    return run


def padded_queries(analysis: "Analysis", pattern: Pattern) -> torch.Tensor:
    """Queries that are padding, as (batch, rest, T_q): known padding of the query sequence, or,
    when queries and keys index one sequence, the queries at padded key positions."""
    size_q = pattern.hidden.shape[QUERY]
    padded = torch.zeros(1, 1, size_q, dtype=torch.bool)
    known = known_padding(analysis, pattern, "query")
    if known is not None:
        padded = padded | known
    if pattern.offset is not None:
        keys = padded_keys(analysis, pattern)[..., 0, :]  # (batch, rest, T_k)
        start = pattern.offset
        if start + size_q <= keys.shape[-1]:
            padded = padded | keys[..., start:start + size_q]
    return padded


def _end_run(unread: torch.Tensor) -> torch.Tensor:
    """The run of True at the end of the last dim (else at its start), per row: padding's shape."""
    trailing = unread.flip(-1).int().cumprod(-1).flip(-1).bool()
    leading = unread.int().cumprod(-1).bool()
    use_trailing = trailing.any(-1, keepdim=True)
    return torch.where(use_trailing, trailing, leading) & ~unread.all(-1, keepdim=True)


def undirected(visible: torch.Tensor, real: torch.Tensor) -> bool:
    """Whether a square (..., T, T) visibility mask has no direction among the `real` (..., T)
    positions: every one that sees another is seen by it in turn (a graph's adjacency, a
    bidirectional window). Global keys, seen by every real query (Longformer's global tokens, a
    sink), are left out with their own rows: they make any mask lopsided, whatever its direction."""
    real = real & visible.any(-2)
    seen_by_all = (visible | ~real[..., :, None]).all(-2) & real
    kept = real & ~seen_by_all
    if not bool(kept.any()):
        kept = real  # every key is global: judge the whole mask
    mutual = visible & kept[..., :, None] & kept[..., None, :]
    return bool((mutual == mutual.transpose(-1, -2)).all())


def alike_rows(table: torch.Tensor) -> int:
    """How many rows at the top of a (T_q, T_k) table equal its first: a prefix LM's prefix, or a
    mask's rows that see the same keys whatever their position."""
    return int((table == table[0]).all(-1).int().cumprod(0).sum())


def lines_reading_ahead(analysis: "Analysis", vid: int, steps: int = 48) -> frozenset[tuple[str, int]]:
    """The lines among the makers of mask `vid` whose own result already treats a later key like the
    query's own key: the piece of a mask built from pieces (local heads and strided heads stacked)
    that lets a query read ahead, which the notes should name before the pieces that do not. Empty
    when the mask itself treats no later key like the query's own (its polarity is what is wrong:
    the diagonal hidden with the future shown), since then no piece is the culprit."""
    recording, flow = analysis.recording, analysis.flow
    final = recording.values.get(vid)
    if final is None or not reads_ahead(final):
        return frozenset()
    found: set[tuple[str, int]] = set()
    for current in flow.ancestors(vid, limit=steps):
        event = flow.made_by(current)
        if event is None:
            continue
        place = (event.file, event.line)
        leaves = all((user.file, user.line) != place for user, _ in flow.users(current))
        value = recording.values.get(current)
        if event.file and leaves and value is not None and reads_ahead(value):
            found.add(place)
    return frozenset(found)


def reads_ahead(table: torch.Tensor) -> bool:
    """Whether some (…, T_q, T_k) table holds, at a key after a query, the value it holds at that
    query's own key (keys aligned at the bottom right: cached keys first): True beside True in a
    keep-mask, False beside False in a hide-mask, 0 beside 0 in an additive one."""
    if table.dim() < 2 or table.is_complex():
        return False
    rows, columns = table.shape[-2:]
    if rows < 2 or columns < rows:
        return False
    flat = table.reshape(-1, rows, columns)
    own = torch.arange(rows) + (columns - rows)
    diagonal = flat[:, torch.arange(rows), own]
    later = torch.arange(columns)[None, :] > own[:, None]
    return bool(((flat == diagonal[..., None]) & later).any())
