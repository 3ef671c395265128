"""The protected region of any value: the cells a witness's change must not reach.

A witness changes one part of the inputs (one sample, the padded positions, the tokens after
position t) and names, by axis, what must not move: the other samples, the real positions,
the positions up to t. Because the region is stated over axes rather than over the model's
outputs, it applies to every value the forward pass computed, which is what lets a witness
find the first op where the change got in.

Each dim of a value is read through the analysis's axes: a batch dim gives a sample index
per element, a dim of the witnessed sequence (or of its query/key copies) a position, and
merged dims (`B·H`, `B·T`) both, unravelled. Dims that cannot carry the change (features,
heads) constrain nothing. A dim that might carry it in a form the axes do not spell out (an
unnamed axis the size of the batch or the sequence, a factor of either, a torn axis, another
sequence that may be this one written into a cache) makes the value *undetermined*: it is
neither evidence of a leak nor of its absence.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from ..axes import COPIES, AxisTable

OTHER = -1  # a position of another sequence inside a concatenation: never protected
Coordinates = list[tuple[str, torch.Tensor]]  # ("batch" | "pos", index per element along the dim)


@dataclass(frozen=True)
class Region:
    """What a witness protects. `sequence` is the table root of the witnessed sequence (None for
    the batch and repeat witnesses); `pad` is (batch, T) True at padding (for packed documents: at
    the changed document and at padding); `cut` the last
    protected position of the causal witness; `sample` the changed sample of the batch witness."""

    kind: str  # "batch", "padding", "documents", "causal" or "repeat"
    sequence: int | None = None
    sizes: frozenset[int] = frozenset()  # sizes an unnamed axis may not have and stay neutral
    pad: torch.Tensor | None = None
    cut: torch.Tensor | None = None  # per sample (one value: every sample)
    sample: int | None = None
    aligned: frozenset[int] = frozenset()  # roots of sequences the model lines up with this one, position by position
    grid: tuple[int, int] | None = None  # padding of an image: the roots of its row and column axes (pad is B, rows, columns)


def protected_cells(table: AxisTable, axes: tuple[int, ...], shape: tuple[int, ...], region: Region,
                    output: bool = False, loose: bool = False) -> torch.Tensor | None:
    """Bool cells of a value (broadcastable to `shape`) that must not move, or None if undetermined.

    `output`: the value is a model output, where another sequence's positions (a decoder's over a
    padded encoder) are wholly protected rather than undetermined. `loose`: dims that cannot be
    placed constrain nothing, so the cells are those that some placing of them may protect (a
    change outside them, at a padded query row, is no leak whatever those dims hold).
    """
    if region.kind == "repeat":
        return torch.ones((), dtype=torch.bool)
    if len(axes) != len(shape):
        return None
    per_dim = []
    for axis, size in zip(axes, shape):
        found = coordinates(table, axis, size, region, output, 0)
        if found is None and not loose:
            return None
        per_dim.append(found or [])
    batch = [(d, vec) for d, found in enumerate(per_dim) for what, vec in found if what == "batch"]
    positions = [(d, vec) for d, found in enumerate(per_dim) for what, vec in found if what == "pos"]
    rank = len(shape)
    if region.kind == "batch":
        if not batch:
            return None
        return _all([_along(vec != region.sample, d, rank) for d, vec in batch], rank)
    if region.kind == "causal":
        if not positions:
            return None
        cuts = region.cut
        if cuts.numel() > 1 and bool((cuts != cuts[0]).any()):
            if len(batch) != 1:
                return None  # each sample has its own cut: the cells' samples must be known
            bdim, bvec = batch[0]
            if int(bvec.max()) >= cuts.numel():
                return None
            cells = _all([(_along(vec, d, rank) <= _along(cuts[bvec], bdim, rank)) & _along(vec >= 0, d, rank)
                          for d, vec in positions], rank)
        else:
            cells = _all([_along((vec <= int(cuts.flatten()[0])) & (vec >= 0), d, rank) for d, vec in positions], rank)
        if region.pad is None:
            return cells
        real = _real(region.pad, batch, positions, rank)
        return None if real is None else cells & real
    if region.kind == "documents":  # a value pooled over the row may read every document by design
        return _real(region.pad, batch, positions, rank) if positions else None
    if region.grid is not None:
        return _real_pixels(region, per_dim, batch, rank)
    if not positions:
        return _pooled(region, batch)
    return _real(region.pad, batch, positions, rank, others=output)


def _pooled(region: Region, batch: list) -> torch.Tensor | None:
    """A value without the padded positions is pooled over them (or independent of them): wholly
    protected, when its samples can be told apart (or there is one)."""
    return torch.ones((), dtype=torch.bool) if batch or region.pad.shape[0] == 1 else None


def _real(pad: torch.Tensor, batch: list, positions: list, rank: int, others: bool = False) -> torch.Tensor | None:
    """Cells at real (not padded) positions of every positional dim, by each cell's sample.
    `others`: an output's positions of another sequence joined to this one (tokens decoded after
    a padded prompt) hold no padding of it, so they are protected too."""
    if len(batch) > 1 or (not batch and pad.shape[0] != 1):
        return None
    cells = []
    for dim, vec in positions:
        if int(vec.max()) >= pad.shape[1]:
            return None
        if batch:
            bdim, bvec = batch[0]
            if int(bvec.max()) >= pad.shape[0]:
                return None
            real = ~pad[_along(bvec, bdim, rank), _along(vec.clamp(min=0), dim, rank)]
        else:
            real = _along(~pad[0][vec.clamp(min=0)], dim, rank)
        real = real & _along(vec >= 0, dim, rank)
        cells.append(real | _along(vec == OTHER, dim, rank) if others else real)
    return _all(cells, rank)


def _real_pixels(region: Region, per_dim: list[Coordinates], batch: list, rank: int) -> torch.Tensor | None:
    """Cells at real pixels of a padded image: by each cell's sample, row and column. A value with
    neither rows nor columns (pooled, or the queries that read the pixels) is wholly protected."""
    rows = [(d, vec) for d, found in enumerate(per_dim) for what, vec in found if what == "row"]
    columns = [(d, vec) for d, found in enumerate(per_dim) for what, vec in found if what == "column"]
    if not rows and not columns:
        return _pooled(region, batch)
    if len(rows) != 1 or len(columns) != 1 or len(batch) > 1 or (not batch and region.pad.shape[0] != 1):
        return None
    (row_dim, row), (column_dim, column) = rows[0], columns[0]
    pad = region.pad
    if int(row.max()) >= pad.shape[1] or int(column.max()) >= pad.shape[2]:
        return None
    samples = _along(batch[0][1], batch[0][0], rank) if batch else torch.zeros((1,) * rank, dtype=torch.long)
    return ~pad[samples, _along(row, row_dim, rank), _along(column, column_dim, rank)]


def _along(vec: torch.Tensor, dim: int, rank: int) -> torch.Tensor:
    shape = [1] * rank
    shape[dim] = vec.numel()
    return vec.reshape(shape)


def _all(cells: list[torch.Tensor], rank: int) -> torch.Tensor:
    result = torch.ones((1,) * rank, dtype=torch.bool)
    for cell in cells:
        result = result & cell
    return result


def coordinates(table: AxisTable, axis: int, size: int, region: Region, output: bool = False,
                depth: int = 0, picking: frozenset[int] = frozenset()) -> Coordinates | None:
    """What one dim says about batch and position, [] when nothing, None when it cannot be told.
    `picking`: the picked axes whose sources are being read (a beam's scores are picked from its
    scores of the step before): met again, such an axis adds nothing to what its sources carry."""
    record = table.get(axis)
    if table.find(axis) in picking:
        return []
    if size == 1 or record.kind == "one":
        return [("batch", torch.zeros(1, dtype=torch.long))] if record.kind == "batch" else []
    if record.kind == "mixed" or depth > 3:
        return None
    root = table.find(table.base_of(axis))
    if region.grid is not None and root in region.grid:
        return [("row" if root == region.grid[0] else "column", torch.arange(size))]
    parts = record.parts or table.axes[root].parts  # a query or key copy of a merged axis holds its parts
    if parts:
        return _unravelled(table, parts, size, region, output, depth, picking)
    if record.kind == "batch":
        if record.base is not None and not record.role:  # a factor of the batch
            return None if region.kind != "repeat" else []
        return [("batch", torch.arange(size))] if region.kind != "repeat" else []
    if record.kind in ("seq", "pos"):
        found = positions_of(table, axis, region) if region.sequence is not None else None
        if found is not None and found.numel() == size:
            return [("pos", found), *(("pos", shifted) for shifted in _also_positions(table, axis, region))]
        if region.kind == "batch" or output:
            return []
        return None  # another sequence: it may be this one, written into a cache
    if record.kind == "spatial":  # under an image's padding, other pixels (a coarser map) cannot be placed
        return [] if region.kind == "batch" or (output and region.grid is None) else None
    if _descends(table, axis, region):
        return None
    if record.kind == "unknown" and record.label == COPIES:
        return []
    if record.kind == "unknown" and record.picked_from is not None:  # what it was picked from may hold, no more
        source = coordinates(table, record.picked_from, table.get(record.picked_from).size, region, output, 0,
                             picking | {table.find(axis)})  # each picked axis read once: a beam's steps may be many
        return [] if source == [] else None
    if record.kind == "unknown" and size in region.sizes:
        return None  # an unnamed axis the size of what changed: it may be that, unnamed
    return []


def witnessed(table: AxisTable, root: int | None, region: Region) -> bool:
    """Whether the sequence at table root `root` is the one `region` protects: the witnessed
    sequence itself, or, under an image's padding, its pixels flattened row by row."""
    if root is None:
        return False
    if region.grid is None:
        return root == region.sequence
    return tuple(table.find(part) for part in table.axes[root].parts) == region.grid


def positions_of(table: AxisTable, axis: int, region: Region, depth: int = 0) -> torch.Tensor | None:
    """The positions of the witnessed sequence an axis holds: all of them, a chunk cut from them
    (`ids[:, s:s + C]`), or chunks concatenated back (`torch.cat(chunks, 1)`); None otherwise.
    In a concatenation, a piece from elsewhere (the next chunk, a memory token) is `OTHER`:
    never protected, so it can hide a leak but never make one up."""
    base = table.base_of(axis)
    record = table.axes[base]
    if base == table.find(region.sequence) or any(base == table.find(root) for root in region.aligned):
        return torch.arange(record.size)
    if depth > 6:
        return None
    if record.cut_from is not None and record.cut_start is not None:
        inner = positions_of(table, record.cut_from, region, depth + 1)
        return inner[record.cut_start:record.cut_start + record.size] if inner is not None else None
    if record.joined:
        pieces = [positions_of(table, piece, region, depth + 1) for piece in record.joined]
        if all(piece is None for piece in pieces):
            return None
        return torch.cat([piece if piece is not None else torch.full((table.get(part).size,), OTHER)
                          for piece, part in zip(pieces, record.joined)])
    if record.kind == "merged" and record.parts:
        return _merged_positions(table, record, region, depth)
    return None


def _merged_positions(table: AxisTable, record, region: Region, depth: int) -> torch.Tensor | None:
    """Positions of a flattened axis one of whose parts is the witnessed sequence (the tokens of
    every step, `(steps · tokens_per_step)`): each entry holds its step's position, row-major."""
    sizes = [table.get(part).size for part in record.parts]
    found = [positions_of(table, part, region, depth + 1) for part in record.parts]
    held = [index for index, positions in enumerate(found) if positions is not None]
    if len(held) != 1 or math.prod(sizes) != record.size:
        return None
    index = held[0]
    inner = math.prod(sizes[index + 1:])
    return found[index].repeat_interleave(inner).repeat(math.prod(sizes[:index]))


def _also_positions(table: AxisTable, axis: int, region: Region) -> list[torch.Tensor]:
    """The positions an axis also stands for, met element by element by other cuts of the same
    sequence (a next-token target): a cell is protected only where all of its positions are."""
    record = table.axes[table.base_of(axis)]
    inner = positions_of(table, record.cut_from, region) if record.also_starts and record.cut_from is not None else None
    if inner is None:
        return []
    return [inner[start:start + record.size] for start in record.also_starts if start + record.size <= inner.numel()]


def _unravelled(table: AxisTable, parts: tuple[int, ...], size: int, region: Region, output: bool,
                depth: int, picking: frozenset[int] = frozenset()) -> Coordinates | None:
    """A flattened dim's coordinates: each part's, at the index that part has in a row-major merge."""
    sizes = [table.get(part).size for part in parts]
    if math.prod(sizes) != size:
        return None
    index = torch.arange(size)
    found: Coordinates = []
    stride = size
    for part, part_size in zip(parts, sizes):
        stride //= part_size
        inner = coordinates(table, part, part_size, region, output, depth + 1, picking)
        if inner is None:
            return None
        where = (index // stride) % part_size
        found.extend((what, vec[where] if vec.numel() > 1 else vec.expand(size)) for what, vec in inner)
    return found


def _descends(table: AxisTable, axis: int, region: Region) -> bool:
    """Whether an axis was cut from the witnessed sequence or the batch (a chunk of positions)."""
    seen, todo = set(), [axis]
    while todo:
        current = table.find(todo.pop())
        if current in seen:
            continue
        seen.add(current)
        record = table.axes[current]
        if current != table.find(axis):
            if record.kind == "batch" and region.kind == "batch":
                return True
            if region.sequence is not None and current == table.find(region.sequence):
                return True
        if record.base is not None:
            todo.append(record.base)
        todo.extend(record.parts)
    return False
