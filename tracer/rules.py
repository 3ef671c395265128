"""Axis rules: one function per op family maps the axes of an op's inputs to its outputs.

A rule gets the event, the axes of each tensor input (in `event.inputs` order) and the
table, and returns the axes of each output. An op without a rule falls back to
broadcasting when the output's shape is the broadcast of its inputs' shapes, and to fresh
axes of unknown meaning otherwise, from which no check concludes anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .axes import SEQ_LIKE, AxisTable
from .events import TENSOR_SLOT, OpEvent

Axes = tuple[int, ...]


@dataclass
class OpFacts:
    """What a rule learned about one op beyond its output axes (read by the block finder)."""

    contracted: list[tuple[int, int]] = field(default_factory=list)  # (input position, dim) pairs
    normalized: tuple[int, ...] = ()  # dims a softmax / norm / reduction works over (input dims)


@dataclass
class RuleContext:
    table: AxisTable
    event: OpEvent
    inputs: list[Axes]
    facts: OpFacts

    def shape(self, position: int) -> tuple[int, ...]:
        return self.event.inputs[position].shape

    def fresh(self, shape: tuple[int, ...], kind: str = "unknown") -> Axes:
        return tuple(self.table.new("one" if s == 1 else kind, s, origin=self.event.index) for s in shape)

    def position_of(self, value) -> int | None:
        """The input position of an argument recorded as {"$t": i}."""
        if isinstance(value, dict) and TENSOR_SLOT in value:
            return value[TENSOR_SLOT]
        return None


Rule = Callable[[RuleContext], list[Axes]]
RULES: dict[str, Rule] = {}


def rule(*ops: str) -> Callable[[Rule], Rule]:
    def register(function: Rule) -> Rule:
        for op in ops:
            if op in RULES:
                raise ValueError(f"two axis rules for {op}")
            RULES[op] = function
        return function
    return register


def normalize_dims(dims, ndim: int) -> tuple[int, ...]:
    if dims is None:
        return tuple(range(ndim))
    if isinstance(dims, int):
        dims = [dims]
    return tuple(sorted({d % ndim for d in dims})) if ndim else ()


def broadcast_axes(ctx: RuleContext, positions: list[int], out_shape: tuple[int, ...]) -> Axes:
    """Align inputs from the right; axes meeting in one output dimension are unified."""
    n = len(out_shape)
    result = []
    for i, size in enumerate(out_shape):
        chosen = None
        for position in positions:
            shape = ctx.shape(position)
            j = i - (n - len(shape))
            if j < 0 or (shape[j] == 1 and size != 1):
                continue
            axis = ctx.inputs[position][j]
            chosen = axis if chosen is None else (ctx.table.unify(chosen, axis, ctx.event.index) if size != 1 else chosen)
        result.append(chosen if chosen is not None else ctx.table.new("one" if size == 1 else "unknown", size))
    return tuple(result)


def broadcast_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    n = max((len(s) for s in shapes), default=0)
    out = []
    for i in range(n):
        sizes = {s[i - (n - len(s))] for s in shapes if i - (n - len(s)) >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            return None
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def elementwise(ctx: RuleContext) -> list[Axes]:
    positions = list(range(len(ctx.inputs)))
    return [broadcast_axes(ctx, positions, out.shape) if out.shape == ctx.event.outputs[0].shape
            else ctx.fresh(out.shape) for out in ctx.event.outputs]


def fallback(ctx: RuleContext) -> list[Axes]:
    """Broadcasting when the shapes say so, unknown axes otherwise."""
    shapes = [m.shape for m in ctx.event.inputs]
    outputs = ctx.event.outputs
    if shapes and all(out.shape == broadcast_shape(shapes) for out in outputs):
        return elementwise(ctx)
    return [ctx.fresh(out.shape) for out in outputs]


# ------------------------------------------------------------------ shape-keeping ops
@rule("softmax", "log_softmax", "_softmax")
def softmax_rule(ctx: RuleContext) -> list[Axes]:
    ndim = len(ctx.shape(0))
    dim = ctx.event.arg(1, "dim")
    if dim is None:  # torch's legacy implicit dim (F.softmax without dim): 0 for 0-, 1- and 3-d, else 1
        dim = 0 if ndim in (0, 1, 3) else 1
    ctx.facts.normalized = normalize_dims(dim, ndim)
    return [ctx.inputs[0]]


@rule("layer_norm", "rms_norm")
def layer_norm_rule(ctx: RuleContext) -> list[Axes]:
    ndim = len(ctx.shape(0))
    shape = ctx.event.arg(1, "normalized_shape") or []
    count = 1 if isinstance(shape, int) else len(shape)
    ctx.facts.normalized = tuple(range(ndim - count, ndim))
    for position in range(1, len(ctx.inputs)):  # gamma and beta live in the normalized axes
        weight = ctx.inputs[position]
        for offset, axis in enumerate(reversed(weight)):
            ctx.table.unify(ctx.inputs[0][ndim - 1 - offset], axis, ctx.event.index)
    return [ctx.inputs[0]]


@rule("group_norm", "batch_norm", "instance_norm")
def channel_norm_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.inputs[0]]


@rule("masked_fill")
def masked_fill_rule(ctx: RuleContext) -> list[Axes]:
    out = broadcast_axes(ctx, list(range(len(ctx.inputs))), ctx.event.outputs[0].shape)
    return [out]


# ------------------------------------------------------------------ reductions
@rule("sum", "mean", "amax", "amin", "max", "min", "var", "std", "var_mean", "std_mean", "logsumexp",
      "norm", "prod", "any", "all", "argmax", "argmin", "nansum", "nanmean", "median", "count_nonzero")
def reduction_rule(ctx: RuleContext) -> list[Axes]:
    if len(ctx.inputs) > 1 and ctx.event.tensor_arg(1, "other") is not None:
        return elementwise(ctx)  # torch.max(a, b) is elementwise
    shape = ctx.shape(0)
    dim = ctx.event.arg(1, "dim")
    if isinstance(dim, (bool, float)) or (isinstance(dim, dict)):
        dim = None
    reduced = normalize_dims(dim, len(shape))
    ctx.facts.normalized = reduced
    outputs = []
    for out in ctx.event.outputs:
        if len(out.shape) == len(shape):
            axes = tuple(ctx.table.new("one", 1) if i in reduced else a for i, a in enumerate(ctx.inputs[0]))
        else:
            axes = tuple(a for i, a in enumerate(ctx.inputs[0]) if i not in reduced)
        outputs.append(axes if len(axes) == len(out.shape) else ctx.fresh(out.shape))
    return outputs


# ------------------------------------------------------------------ reshapes
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
            if len(run) == 1:
                pieces.append((axis, axis, False))
            elif tuple(table.get(p).size for p in table.get(axis).parts) == tuple(run):
                pieces += [(part, part, False) for part in table.get(axis).parts]  # B·H back into B, H
            else:
                pieces += [(piece, axis, True) for piece in table.factors(axis, tuple(run), index)]
        cursor = 0
        for d in dst:
            run, product = [], 1
            while product < out_shape[d]:
                run.append(pieces[cursor]); product *= table.get(pieces[cursor][0]).size; cursor += 1
            out_axes[d] = _joined(table, run, out_shape[d], index)
    return [tuple(out_axes.get(d, table.new("one", 1)) for d in range(len(out_shape)))]


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


@rule("expand", "expand_as", "broadcast_to", "repeat", "tile", "repeat_interleave")
def expand_rule(ctx: RuleContext) -> list[Axes]:
    """Dimensions that keep their size keep their axis; grown ones are new, of unknown meaning."""
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    offset = len(out) - len(shape)
    axes = []
    for i, size in enumerate(out):
        j = i - offset
        if j >= 0 and shape[j] == size and not (ctx.event.op == "repeat_interleave"):
            axes.append(ctx.inputs[0][j])
        else:
            axes.append(ctx.table.new("one" if size == 1 else "unknown", size, origin=ctx.event.index))
    return [tuple(axes)]


# ------------------------------------------------------------------ joining and splitting
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
    if ctx.event.op != "cat" or not all(len(m.shape) == len(out) for m in ctx.event.inputs):
        return [ctx.fresh(out)]
    d = dim % len(out)
    result = list(ctx.inputs[0])
    for axes in ctx.inputs[1:]:
        for i, axis in enumerate(axes):
            if i != d and ctx.table.get(axis).size != 1:
                result[i] = ctx.table.unify(result[i], axis, ctx.event.index)
    kinds = {ctx.table.get(axes[d]).kind for axes in ctx.inputs}
    kind = "feature" if kinds == {"feature"} else "unknown"
    result[d] = ctx.table.new(kind, out[d], origin=ctx.event.index, label="concatenation")
    return [tuple(result)]


@rule("chunk", "split", "tensor_split", "unbind", "split_with_sizes")
def split_rule(ctx: RuleContext) -> list[Axes]:
    """Pieces along the split dim are new axes: the q, k and v of a fused projection differ."""
    shape = ctx.shape(0)
    dim = ctx.event.arg(2, "dim", 0)
    d = dim % len(shape)
    outputs = []
    base = ctx.table.get(ctx.inputs[0][d])
    for number, out in enumerate(ctx.event.outputs):
        axes = list(ctx.inputs[0])
        if ctx.event.op == "unbind":
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
            axes.append(ctx.table.new("one", 1))
            continue
        axis = ctx.inputs[0][source_dim]
        if isinstance(item, dict) and "slice" in item:
            axes.append(axis if item["slice"] == [None, None, None] else None)
        source_dim += 1
    if len(axes) != len(out):
        return [ctx.fresh(out)]
    result = []
    for position, axis in enumerate(axes):
        if axis is not None and ctx.table.get(axis).size == out[position]:
            result.append(axis)
        else:
            result.append(ctx.table.new("one" if out[position] == 1 else "unknown", out[position], origin=ctx.event.index))
    _mark_table_positions(ctx, expanded, result)
    return [tuple(result)]


def _mark_table_positions(ctx: RuleContext, index: list, result: list[int]) -> None:
    """A table cut to length along its first dimension (`pe[:T]`) yields a run of positions."""
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
    return [ctx.fresh(out)]


# ------------------------------------------------------------------ products
def _matmul(ctx: RuleContext, left: int, right: int, out_shape: tuple[int, ...]) -> Axes:
    table, index = ctx.table, ctx.event.index
    a, b = list(ctx.inputs[left]), list(ctx.inputs[right])
    a_shape, b_shape = list(ctx.shape(left)), list(ctx.shape(right))
    vector_left, vector_right = len(a) == 1, len(b) == 1
    if vector_left:
        a, a_shape = [table.new("one", 1)] + a, [1] + a_shape
    if vector_right:
        b, b_shape = b + [table.new("one", 1)], b_shape + [1]
    ctx.facts.contracted = [(left, len(ctx.shape(left)) - 1), (right, max(len(ctx.shape(right)) - 2, 0))]
    contracted_a, contracted_b = a[-1], b[-2]
    if table.get(contracted_a).kind == "unknown" or table.get(contracted_b).kind == "unknown":
        table.unify(contracted_a, contracted_b, index)
    batch_a, batch_b = a[:-2], b[:-2]
    n = max(len(batch_a), len(batch_b))
    batch = []
    for i in range(n):
        ia, ib = i - (n - len(batch_a)), i - (n - len(batch_b))
        sa = a_shape[ia] if ia >= 0 else 1
        sb = b_shape[ib] if ib >= 0 else 1
        if ia >= 0 and ib >= 0 and sa == sb:
            batch.append(table.unify(batch_a[ia], batch_b[ib], index))
        elif ia >= 0 and sa != 1:
            batch.append(batch_a[ia])
        elif ib >= 0:
            batch.append(batch_b[ib])
        else:
            batch.append(batch_a[ia])
    rows, cols = a[-2], b[-1]
    rows, cols = score_roles(table, rows, cols, index)
    axes = batch + ([] if vector_left else [rows]) + ([] if vector_right else [cols])
    return tuple(axes) if len(axes) == len(out_shape) else ctx.fresh(out_shape)


def score_roles(table: AxisTable, rows: int, cols: int, index: int) -> tuple[int, int]:
    """Rows of a product of two sequences are query positions, its columns key positions."""
    row, col = table.get(rows), table.get(cols)
    same = table.base_of(rows) == table.base_of(cols)
    if same or (row.kind in SEQ_LIKE and col.kind in SEQ_LIKE):
        return table.role_copy(rows, "query", index), table.role_copy(cols, "key", index)
    return rows, cols


@rule("matmul", "mm", "bmm")
def matmul_rule(ctx: RuleContext) -> list[Axes]:
    return [_matmul(ctx, 0, 1, ctx.event.outputs[0].shape)]


@rule("rmatmul")
def rmatmul_rule(ctx: RuleContext) -> list[Axes]:
    return [_matmul(ctx, 1, 0, ctx.event.outputs[0].shape)]


@rule("baddbmm", "addmm", "addbmm")
def addmm_rule(ctx: RuleContext) -> list[Axes]:
    """`input + b1 @ b2`: the product as for matmul, `input` broadcast onto it (e.g. a mask)."""
    out_shape = ctx.event.outputs[0].shape
    product = _matmul(ctx, 1, 2, out_shape)
    n = len(out_shape)
    added = ctx.inputs[0]
    for i, axis in enumerate(added):
        j = i + n - len(added)
        if ctx.shape(0)[i] != 1 and j >= 0:
            ctx.table.unify(product[j], axis, ctx.event.index)
    return [product]


@rule("linear")
def linear_rule(ctx: RuleContext) -> list[Axes]:
    x = ctx.inputs[0]
    weight = ctx.inputs[1]
    ctx.facts.contracted = [(0, len(x) - 1), (1, len(weight) - 1)]
    ctx.table.unify(weight[-1], x[-1], ctx.event.index)
    if len(weight) == 2:
        ctx.table.specify(weight[0], "feature", label=f"features made by {ctx.event.module or 'a projection'}")
        out = x[:-1] + (weight[0],)
    else:
        out = x[:-1]
    if len(ctx.inputs) > 2 and len(weight) == 2:
        ctx.table.unify(out[-1], ctx.inputs[2][-1], ctx.event.index)
    return [out if len(out) == len(ctx.event.outputs[0].shape) else ctx.fresh(ctx.event.outputs[0].shape)]


@rule("embedding")
def embedding_rule(ctx: RuleContext) -> list[Axes]:
    ids, weight = ctx.inputs[0], ctx.inputs[1]
    ctx.table.specify(weight[1], "feature", label=f"embedding features of {ctx.event.module or 'a table'}")
    return [ids + (weight[1],)]


@rule("einsum")
def einsum_rule(ctx: RuleContext) -> list[Axes]:
    equation = str(ctx.event.args[0]).replace(" ", "")
    operands = [i for i in range(len(ctx.inputs))]
    lhs, _, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands) or "." in equation:
        return [ctx.fresh(ctx.event.outputs[0].shape)]
    if not _:
        counts = {c: lhs.count(c) for c in set(lhs) if c.isalpha()}
        rhs = "".join(sorted(c for c, n in counts.items() if n == 1))
    letters: dict[str, list[tuple[int, int]]] = {}
    for position, term in enumerate(terms):
        for dim, letter in enumerate(term):
            letters.setdefault(letter, []).append((position, dim))
    table, index = ctx.table, ctx.event.index
    ctx.facts.contracted = [pd for letter, where in letters.items() if letter not in rhs for pd in where]
    chosen: dict[str, int] = {}
    for letter, where in letters.items():
        axis = None
        for position, dim in where:
            candidate = ctx.inputs[position][dim]
            if table.get(candidate).size == 1:
                continue
            if axis is None:
                axis = candidate
            elif letter in rhs or table.get(axis).kind == "unknown" or table.get(candidate).kind == "unknown":
                axis = table.unify(axis, candidate, index)
        chosen[letter] = axis if axis is not None else ctx.inputs[where[0][0]][where[0][1]]
    free = [l for l in rhs if len({p for p, _ in letters.get(l, [])}) == 1]
    if len(terms) == 2:
        rows = [l for l in free if letters[l][0][0] == 0]
        cols = [l for l in free if letters[l][0][0] == 1]
        if len(rows) >= 1 and len(cols) >= 1:
            r, c = score_roles(table, chosen[rows[-1]], chosen[cols[-1]], index)
            chosen[rows[-1]], chosen[cols[-1]] = r, c
    out = tuple(chosen[l] for l in rhs if l in chosen)
    return [out if len(out) == len(ctx.event.outputs[0].shape) else ctx.fresh(ctx.event.outputs[0].shape)]


@rule("scaled_dot_product_attention")
def sdpa_rule(ctx: RuleContext) -> list[Axes]:
    table, index = ctx.table, ctx.event.index
    q, k, v = ctx.inputs[0], ctx.inputs[1], ctx.inputs[2]
    table.unify(k[-2], v[-2], index)
    for qa, ka in zip(reversed(q[:-2]), reversed(k[:-2])):
        if table.get(qa).size == table.get(ka).size:
            table.unify(qa, ka, index)
    rows, cols = table.role_copy(q[-2], "query", index), table.role_copy(k[-2], "key", index)
    ctx.facts.contracted = [(0, len(q) - 1), (1, len(k) - 1)]
    mask = ctx.position_of(ctx.event.arg(3, "attn_mask"))
    if mask is not None:
        scores = q[:-2] + (rows, cols)
        shape = ctx.shape(mask)
        for i, axis in enumerate(ctx.inputs[mask]):
            j = i + len(scores) - len(shape)
            if shape[i] != 1 and j >= 0:
                table.unify(scores[j], axis, index)
    return [q[:-2] + (rows, v[-1])]


# ------------------------------------------------------------------ creation
@rule("ones", "zeros", "full", "empty", "rand", "randn", "randint", "eye", "tensor", "as_tensor",
      "new_ones", "new_zeros", "new_full", "new_empty", "new_tensor", "linspace", "tril_indices")
def creation_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.fresh(out.shape) for out in ctx.event.outputs]


@rule("arange")
def arange_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.fresh(out.shape, kind="pos") for out in ctx.event.outputs]


@rule("ones_like", "zeros_like", "full_like", "empty_like", "rand_like", "randn_like")
def like_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.inputs[0]]


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


@rule("outer", "ger")
def outer_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.inputs[0] + ctx.inputs[1]]


def infer(table: AxisTable, event: OpEvent, inputs: list[Axes]) -> tuple[list[Axes], OpFacts]:
    """Output axes of `event` (one tuple per output) and what the rule learned about it."""
    facts = OpFacts()
    ctx = RuleContext(table, event, inputs, facts)
    function = RULES.get(event.op, fallback)
    try:
        outputs = function(ctx)
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError):
        outputs = [ctx.fresh(out.shape) for out in event.outputs]  # an unexpected argument form
    fixed = []
    for out, axes in zip(event.outputs, outputs):
        fixed.append(axes if len(axes) == len(out.shape) else ctx.fresh(out.shape))
    return fixed, facts
