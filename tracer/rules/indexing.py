"""Rules for joining, splitting and indexing: cat/stack, chunk/split, getitem/narrow, setitem."""

from __future__ import annotations

from ..events import TENSOR_SLOT
from .base import Axes, RuleContext, rule


@rule("cat", "stack", "hstack", "vstack")
def join_rule(ctx: RuleContext) -> list[Axes]:
    out = ctx.event.outputs[0].shape
    dim = ctx.event.arg(1, "dim", 0)
    if ctx.event.op == "stack":
        shapes = {s for s in (m.shape for m in ctx.event.inputs)}
        if len(shapes) != 1:
            return [ctx.fresh(out)]
        d = dim % len(out)
        rest = [a for a in ctx.inputs[0]]
        for axes in ctx.inputs[1:]:
            for x, y in zip(rest, axes):
                ctx.table.unify(x, y, ctx.event.index)
        rest.insert(d, ctx.table.new("unknown", out[d], origin=ctx.event.index))
        return [tuple(rest)]
    # torch still accepts legacy empty (0,) tensors in a cat (an empty KV cache): they add nothing
    joined = [(meta, axes) for meta, axes in zip(ctx.event.inputs, ctx.inputs) if meta.shape != (0,)]
    if ctx.event.op != "cat" or not joined or not all(len(meta.shape) == len(out) for meta, _ in joined):
        return [ctx.fresh(out)]
    if len(joined) == 1:
        return [joined[0][1]]
    d = dim % len(out)
    inputs = [axes for _, axes in joined]
    result = list(inputs[0])
    for axes in inputs[1:]:
        for i, axis in enumerate(axes):
            if i != d and ctx.table.get(axis).size != 1:
                result[i] = ctx.table.unify(result[i], axis, ctx.event.index)
    pieces = [axes[d] for axes in inputs]
    kinds = {ctx.table.get(axis).kind for axis in pieces}
    if any(ctx.table.is_positions(axis) for axis in pieces):
        result[d] = ctx.table.join(pieces, ctx.event.index)  # extra tokens + a sequence: one longer sequence
    else:
        kind = "feature" if kinds == {"feature"} else "unknown"
        result[d] = ctx.table.new(kind, out[d], origin=ctx.event.index, label="concatenation",
                                  joined=tuple(ctx.table.find(piece) for piece in pieces))
    return [tuple(result)]


@rule("chunk", "split", "tensor_split", "unbind", "split_with_sizes")
def split_rule(ctx: RuleContext) -> list[Axes]:
    """Pieces along the split dim are new axes: the q, k and v of a fused projection differ."""
    shape = ctx.shape(0)
    dim = ctx.event.arg(1, "dim", 0) if ctx.event.op == "unbind" else ctx.event.arg(2, "dim", 0)
    d = dim % len(shape)
    outputs = []
    base = ctx.table.get(ctx.inputs[0][d])
    for number, out in enumerate(ctx.event.outputs):
        axes = list(ctx.inputs[0])
        if ctx.event.op == "unbind":
            ctx.table.taken_apart(axes[d])
            del axes[d]
        else:
            kind = "feature" if base.kind == "feature" else "unknown"
            axes[d] = ctx.table.new(kind, out.shape[d], origin=ctx.event.index,
                                    label=f"piece {number} of {base.display}")
        outputs.append(tuple(axes) if len(axes) == len(out.shape) else ctx.fresh(out.shape))
    return outputs


@rule("getitem", "narrow", "select")
def index_rule(ctx: RuleContext) -> list[Axes]:
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    if ctx.event.op == "narrow":
        index = [{"slice": [None, None, None]}] * (ctx.event.arg(1, "dim") % len(shape)) + [{"slice": [0, 1, None]}]
    elif ctx.event.op == "select":
        index = [{"slice": [None, None, None]}] * (ctx.event.arg(1, "dim") % len(shape)) + [0]
    else:
        index = ctx.event.args[1] if len(ctx.event.args) > 1 else []
        index = index if isinstance(index, list) else [index]
    if any(isinstance(item, dict) and TENSOR_SLOT in item for item in index):
        return _advanced_index(ctx, index)
    explicit = sum(1 for item in index if item not in (None, "..."))
    expanded: list = []
    for item in index:
        if item == "...":
            expanded += [{"slice": [None, None, None]}] * (len(shape) - explicit)
        else:
            expanded.append(item)
    expanded += [{"slice": [None, None, None]}] * (len(shape) - sum(1 for i in expanded if i is not None))
    axes, source_dim = [], 0
    for item in expanded:
        if item is None:
            axes.append((ctx.table.new("one", 1), True))
            continue
        axis = ctx.inputs[0][source_dim]
        if isinstance(item, dict) and "slice" in item:
            axes.append((axis, item["slice"]))
        elif isinstance(item, int):
            ctx.table.taken_apart(axis)
        source_dim += 1
    if len(axes) != len(out):
        return [ctx.fresh(out)]
    result = []
    for position, (axis, bounds) in enumerate(axes):
        if ctx.table.get(axis).size == out[position]:  # a slice that keeps every position ([-qlen:] of qlen)
            result.append(axis)
        else:
            piece = _piece(ctx.table, axis, bounds, out[position])
            result.append(piece if piece is not None else _cut(ctx, axis, out[position], bounds))
    _mark_table_positions(ctx, expanded, result)
    return [tuple(result)]


KEPT_WHEN_CUT = ("batch", "seq", "spatial", "feature")


def _piece(table, axis: int, bounds, size: int) -> int | None:
    """The piece of a concatenated axis a slice takes back exactly (scores without their sink
    column, `[..., :-1]`; the new tokens after the cached ones), or None."""
    pieces = table.get(axis).joined
    start = _start(bounds, table.get(axis).size) if pieces else None
    if start is None:
        return None
    offset = 0
    for piece in pieces:
        width = table.get(piece).size
        if offset == start and width == size:
            return piece
        offset += width
    return None


def _cut(ctx: RuleContext, axis: int, size: int, bounds=None) -> int:
    """The axis a slice of `axis` makes: a part of a sequence is a (shorter) sequence, of features
    features; a sequence remembers where in the one it was cut from it starts (a chunk of tokens)."""
    table, index = ctx.table, ctx.event.index
    record = table.get(axis)
    if size == 1:
        return table.new("one", 1, origin=index)
    if record.kind in KEPT_WHEN_CUT or table.is_positions(axis):
        kind = record.kind if record.kind in KEPT_WHEN_CUT else "seq"
        seq = f"{record.seq or record.display}[{size}]@{index}" if kind == "seq" else None
        start = _start(bounds, record.size) if kind == "seq" else None
        return table.new(kind, size, name=record.name if kind != "seq" else "", seq=seq, origin=index,
                         label=f"{size} of the {record.size} positions of {record.display}" if kind == "seq"
                         else f"a part of {record.display}",
                         cut_from=table.find(axis) if start is not None else None, cut_start=start)
    return table.new("unknown", size, origin=index)


def _start(bounds, size: int) -> int | None:
    """Where a plain slice `[start:stop]` (step 1) begins, or None."""
    if not isinstance(bounds, list) or bounds[2] not in (None, 1):
        return None
    start = bounds[0] if bounds[0] is not None else 0
    if not isinstance(start, int):
        return None
    return start + size if start < 0 else start


def _mark_table_positions(ctx: RuleContext, index: list, result: list[int]) -> None:
    """A table cut to length along its first dimension (`pe[:T]`) yields a run of positions; a
    buffer the forward wrote into (a KV cache cut to the batch, `k_cache[:B]`) is no such table."""
    if ctx.written:
        return
    shape = ctx.shape(0)
    first = next((d for d, s in enumerate(shape) if s != 1), None)
    if first is None or first >= len(index) or any(item is None for item in index[: first + 1]):
        return
    item = index[first]
    cut = isinstance(item, dict) and "slice" in item and item["slice"] != [None, None, None]
    if cut and ctx.table.get(ctx.inputs[0][first]).kind in ("unknown", "pos") and first < len(result):
        ctx.table.specify(result[first], "pos", label="positions cut from a table")
    return [tuple(result)]


def _advanced_index(ctx: RuleContext, index: list) -> list[Axes]:
    out = ctx.event.outputs[0].shape
    tensor_items = [item for item in index if isinstance(item, dict) and TENSOR_SLOT in item]
    if len(tensor_items) == 1 and index[0] == tensor_items[0]:
        position = tensor_items[0][TENSOR_SLOT]
        axes = ctx.inputs[position] + ctx.inputs[0][1:]
        if len(axes) == len(out):
            return [axes]
    if len(tensor_items) > 1 and index[:len(tensor_items)] == tensor_items:
        picked = _picked_in_order(ctx, [item[TENSOR_SLOT] for item in tensor_items])
        if picked is not None and len(out) == 1 + len(ctx.inputs[0]) - len(tensor_items):
            return [(picked,) + ctx.inputs[0][len(tensor_items):]]
    return [ctx.fresh(out)]


def _picked_in_order(ctx: RuleContext, positions: list[int]) -> int | None:
    """`x[torch.arange(B), last]`: one element per row of the dim an `arange` of its full size indexes
    (each sample's last token), so the result's dim is that dim's axis; None otherwise."""
    shape = ctx.shape(0)
    if any(len(ctx.shape(position)) != 1 for position in positions):
        return None
    for dim, position in enumerate(positions):
        record = ctx.table.get(ctx.inputs[position][0])
        if record.kind == "pos" and record.size == shape[dim] and ctx.shape(position)[0] == shape[dim]:
            return ctx.inputs[0][dim]
    return None


# ------------------------------------------------------------------ products

@rule("setitem")
def setitem_rule(ctx: RuleContext) -> list[Axes]:
    """`x[index] = value`: x keeps its axes; value's axes line up with the dims a full slice keeps."""
    target = ctx.inputs[0]
    index = ctx.event.args[1] if len(ctx.event.args) > 1 else []
    index = index if isinstance(index, list) else [index]
    if len(ctx.inputs) < 2 or any(not (isinstance(i, int) or (isinstance(i, dict) and "slice" in i)) for i in index):
        return [target]
    kept = [d for d, item in enumerate(index) if not isinstance(item, int)] + list(range(len(index), len(target)))
    value, value_shape = ctx.inputs[1], ctx.shape(1)
    for offset in range(1, min(len(kept), len(value)) + 1):
        d = kept[-offset]
        full = d >= len(index) or index[d]["slice"] == [None, None, None]
        if full and value_shape[-offset] == ctx.shape(0)[d] and value_shape[-offset] != 1:
            ctx.table.unify(target[d], value[-offset], ctx.event.index)
    return [target]


@rule("scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy", "index_fill", "index_put", "masked_scatter")
def scatter_rule(ctx: RuleContext) -> list[Axes]:
    """Values written into `self` at addressed places: the output is `self`. The index and source
    say where and what, not which axes `self` has: an `arange` scattered as values (a batch's
    inverse permutation, as `pack_padded_sequence` builds it) is no position table of `self`."""
    out = ctx.event.outputs[0].shape
    return [ctx.inputs[0] if ctx.shape(0) == out else ctx.fresh(out)]


@rule("gather", "take_along_dim")
def gather_rule(ctx: RuleContext) -> list[Axes]:
    """`input` read at `index` along `dim`: elsewhere the output's dims are the input's (where the
    sizes agree), along `dim` they are the index's."""
    out = ctx.event.outputs[0].shape
    index = ctx.position_of(ctx.event.arg(2, "index") if ctx.event.op == "gather" else ctx.event.arg(1, "indices"))
    dim = ctx.event.arg(1, "dim") if ctx.event.op == "gather" else ctx.event.arg(2, "dim")
    if index is None or not isinstance(dim, int) or len(ctx.shape(0)) != len(out) or ctx.shape(index) != out:
        return [ctx.fresh(out)]
    d = dim % len(out)
    table = ctx.table
    for i, size in enumerate(out):
        if i == d or ctx.shape(0)[i] != size or size == 1:
            continue
        source, taken = ctx.inputs[0][i], ctx.inputs[index][i]
        if table.is_positions(source) and table.is_positions(taken):
            table.note_shift(source, taken)  # a next-token target, `logp` at `ids[:, 1:]`: two cuts, both read
        else:
            table.unify(source, taken, ctx.event.index)  # row i of the index picks from row i of the input
    return [tuple(ctx.inputs[index][i] if i == d or ctx.shape(0)[i] != size else ctx.inputs[0][i]
                  for i, size in enumerate(out))]


@rule("index_select")
def index_select_rule(ctx: RuleContext) -> list[Axes]:
    """Rows picked along `dim`: the same axis when as many are picked as there are (a reordering,
    such as a batch sorted by length), else the index's."""
    out = ctx.event.outputs[0].shape
    dim = ctx.event.arg(1, "dim")
    index = ctx.position_of(ctx.event.arg(2, "index"))
    if index is None or not isinstance(dim, int) or len(ctx.shape(0)) != len(out):
        return [ctx.fresh(out)]
    d = dim % len(out)
    axes = list(ctx.inputs[0])
    if out[d] != ctx.shape(0)[d]:
        axes[d] = ctx.inputs[index][0] if len(ctx.inputs[index]) == 1 else ctx.table.new("unknown", out[d])
    return [tuple(axes)]


@rule("sort", "argsort", "msort", "topk", "kthvalue", "cummax", "cummin", "cumsum", "cumprod")
def order_rule(ctx: RuleContext) -> list[Axes]:
    """Values reordered or accumulated along one dim (and their indices): the input's axes; a dim whose
    size changed (`topk`) holds entries picked from the input's."""
    return [tuple(axis if ctx.table.get(axis).size == size else ctx.table.new("unknown", size, picked_from=axis)
                  for axis, size in zip(ctx.inputs[0], out.shape)) if len(out.shape) == len(ctx.inputs[0])
            else ctx.fresh(out.shape) for out in ctx.event.outputs]
