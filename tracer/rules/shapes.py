"""Rules for ops that rearrange axes: reshapes (split and merge by factors), transposes, (un)squeezes, expands."""

from __future__ import annotations

from ..axes import COPIES, AxisTable
from .base import Axes, RuleContext, normalize_dims, rule


def _groups(a: tuple[int, ...], b: tuple[int, ...]) -> list[tuple[list[int], list[int]]] | None:
    """Split two shapes of equal numel into groups of dims with equal products."""
    groups, i, j = [], 0, 0
    while i < len(a) or j < len(b):
        gi, gj, pa, pb = [], [], 1, 1
        if i < len(a):
            gi.append(i); pa *= a[i]; i += 1
        if j < len(b):
            gj.append(j); pb *= b[j]; j += 1
        while pa != pb:
            if pa < pb and i < len(a):
                gi.append(i); pa *= a[i]; i += 1
            elif pb < pa and j < len(b):
                gj.append(j); pb *= b[j]; j += 1
            else:
                return None
        groups.append((gi, gj))
    return groups


def _refine(a: list[int], b: list[int]) -> list[int] | None:
    """Finest sizes whose consecutive runs give both `a` and `b`, or None if they tear."""
    points, product = set(), 1
    for size in a:
        product *= size; points.add(product)
    product = 1
    for size in b:
        product *= size; points.add(product)
    sizes, previous = [], 1
    for point in sorted(points):
        if point % previous:
            return None
        sizes.append(point // previous)
        previous = point
    return sizes


@rule("view", "reshape", "flatten", "unflatten", "view_as", "reshape_as", "_unsafe_view")
def reshape_rule(ctx: RuleContext) -> list[Axes]:
    table, index = ctx.table, ctx.event.index
    in_shape, out_shape = ctx.shape(0), ctx.event.outputs[0].shape
    in_real = [i for i, s in enumerate(in_shape) if s != 1]
    out_real = [i for i, s in enumerate(out_shape) if s != 1]
    groups = _groups(tuple(in_shape[i] for i in in_real), tuple(out_shape[i] for i in out_real))
    if groups is None:
        return [ctx.fresh(out_shape)]
    out_axes: dict[int, int] = {}
    for gi, gj in groups:
        if len(gi) == 1 and len(gj) == 1 and table.get(ctx.inputs[0][in_real[gi[0]]]).size == in_shape[in_real[gi[0]]]:
            out_axes[out_real[gj[0]]] = ctx.inputs[0][in_real[gi[0]]]  # a dim kept as it is: what the pieces below give
            continue
        src = [ctx.inputs[0][in_real[i]] for i in gi]
        dst = [out_real[j] for j in gj]
        sizes = _refine([in_shape[in_real[i]] for i in gi], [out_shape[d] for d in dst])
        if sizes is None:
            for d in dst:
                out_axes[d] = table.mixed(src, out_shape[d], index)
            continue
        pieces: list[tuple[int, int, bool]] = []  # (axis, the input axis it came from, is a part of it)
        cursor = 0
        for axis in src:  # each input axis becomes the run of pieces it spans
            size, run = table.get(axis).size, []
            product = 1
            while product < size:
                run.append(sizes[cursor]); product *= sizes[cursor]; cursor += 1
            parts = table.get(axis).parts or table.get(table.base_of(axis)).parts  # a query copy of B·T: B, T
            if len(run) == 1:
                pieces.append((axis, axis, False))
            elif tuple(table.get(p).size for p in parts) == tuple(run):
                pieces += [(part, part, False) for part in parts]  # B·H back into B, H
            else:
                pieces += [(piece, axis, True) for piece in table.factors(axis, tuple(run), index)]
        cursor = 0
        for d in dst:
            run, product = [], 1
            while product < out_shape[d]:
                run.append(pieces[cursor]); product *= table.get(pieces[cursor][0]).size; cursor += 1
            out_axes[d] = _joined(table, run, out_shape[d], index)
    return [tuple(out_axes[d] if d in out_axes else table.new("one", 1) for d in range(len(out_shape)))]


def _joined(table: AxisTable, run: list[tuple[int, int, bool]], size: int, index: int) -> int:
    """One output dim made of `run`: only a feature axis may be cut and flattened with others (heads)."""
    if len(run) == 1:
        return run[0][0]
    sources = {table.find(source) for _, source, _ in run}
    torn = len(sources) > 1 and any(part and table.get(source).kind != "feature" for _, source, part in run)
    if torn:
        return table.mixed([source for _, source, _ in run], size, index)
    return table.merge([piece for piece, _, _ in run], index)


@rule("transpose", "t")
def transpose_rule(ctx: RuleContext) -> list[Axes]:
    axes = list(ctx.inputs[0])
    short = ctx.event.target.rsplit(".", 2)
    if len(ctx.event.args) >= 3:
        a, b = ctx.event.args[1] % len(axes), ctx.event.args[2] % len(axes)
        axes[a], axes[b] = axes[b], axes[a]
    elif "mT" in short or "mH" in short:
        axes[-2], axes[-1] = axes[-1], axes[-2]
    else:
        axes.reverse()
    return [tuple(axes)]


@rule("permute")
def permute_rule(ctx: RuleContext) -> list[Axes]:
    dims = ctx.event.arg(1, "dims")
    if isinstance(dims, int):
        dims = list(ctx.event.args[1:])
    n = len(ctx.inputs[0])
    return [tuple(ctx.inputs[0][d % n] for d in dims)]


@rule("movedim")
def movedim_rule(ctx: RuleContext) -> list[Axes]:
    n = len(ctx.inputs[0])
    source, destination = ctx.event.arg(1, "source"), ctx.event.arg(2, "destination")
    source = [source] if isinstance(source, int) else source
    destination = [destination] if isinstance(destination, int) else destination
    order = [None] * n
    for s, d in zip(source, destination):
        order[d % n] = s % n
    rest = iter(i for i in range(n) if i not in {s % n for s in source})
    return [tuple(ctx.inputs[0][o if o is not None else next(rest)] for o in order)]


@rule("unsqueeze")
def unsqueeze_rule(ctx: RuleContext) -> list[Axes]:
    axes = list(ctx.inputs[0])
    dim = ctx.event.arg(1, "dim") % (len(axes) + 1)
    axes.insert(dim, ctx.table.new("one", 1))
    return [tuple(axes)]


@rule("squeeze")
def squeeze_rule(ctx: RuleContext) -> list[Axes]:
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    dim = ctx.event.arg(1, "dim")
    dims = set(normalize_dims(dim, len(shape))) if dim is not None else set(range(len(shape)))
    axes = tuple(a for i, a in enumerate(ctx.inputs[0]) if not (i in dims and shape[i] == 1))
    return [axes if len(axes) == len(out) else ctx.fresh(out)]


@rule("expand", "expand_as", "broadcast_to", "repeat", "tile")
def expand_rule(ctx: RuleContext) -> list[Axes]:
    """Dimensions that keep their size keep their axis; grown singletons are new, of unknown meaning.

    `x.repeat(r, 1, ...)` also grows dims that were not singletons: it tiles, copy-major, so a
    repeated dim is (copies, x's axis) flattened.
    """
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    offset = len(out) - len(shape)
    axes = []
    for i, size in enumerate(out):
        j = i - offset
        if j >= 0 and shape[j] == size:
            axes.append(ctx.inputs[0][j])
        elif j >= 0 and shape[j] > 1 and size % shape[j] == 0:
            copies = ctx.table.new("unknown", size // shape[j], origin=ctx.event.index, label=COPIES)
            axes.append(ctx.table.merge([copies, ctx.inputs[0][j]], ctx.event.index))
        else:
            axes.append(ctx.table.new("one" if size == 1 else "unknown", size, origin=ctx.event.index))
    return [tuple(axes)]


@rule("repeat_interleave")
def repeat_interleave_rule(ctx: RuleContext) -> list[Axes]:
    """`x.repeat_interleave(n, dim)` repeats each entry: entry-major, (x's axis, copies) flattened; with a
    count per entry (a length regulator's durations) a sequence becomes a longer sequence of its own."""
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    dim = ctx.event.arg(2, "dim")
    if dim is None or len(shape) != len(out):
        return [ctx.fresh(out)]
    d = dim % len(shape)
    axes = list(ctx.inputs[0])
    if len(ctx.inputs) > 1:  # a count per entry (durations): the positions stretched, a sequence of its own
        record = ctx.table.get(axes[d])
        sequence = record.kind == "seq"
        axes[d] = ctx.table.new("seq" if sequence else "unknown", out[d], origin=ctx.event.index,
                                seq=f"{record.seq or record.display}*@{ctx.event.index}" if sequence else None,
                                label=f"the positions of {record.display}, each repeated its own number of times")
    elif shape[d] > 1 and out[d] % shape[d] == 0:
        copies = ctx.table.new("unknown", out[d] // shape[d], origin=ctx.event.index, label=COPIES)
        axes[d] = ctx.table.merge([axes[d], copies], ctx.event.index)
    else:
        axes[d] = ctx.table.new("unknown", out[d], origin=ctx.event.index)
    return [tuple(axes)]


# ------------------------------------------------------------------ joining and splitting


@rule("view_as_complex")
def view_as_complex_rule(ctx: RuleContext) -> list[Axes]:
    """(..., 2) reals become (...) complex numbers: every other axis is kept (rotary embeddings)."""
    return [tuple(ctx.inputs[0][:-1])]


@rule("view_as_real")
def view_as_real_rule(ctx: RuleContext) -> list[Axes]:
    """(...) complex numbers become (..., 2) reals: the pair is a new axis of features."""
    return [tuple(ctx.inputs[0]) + (ctx.table.new("feature", 2, origin=ctx.event.index, label="real and imaginary parts"),)]
