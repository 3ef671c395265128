"""Rules for products: matmul/bmm/einsum (query and key roles), linear, embedding, SDPA, outer."""

from __future__ import annotations

from ..axes import MADE_SEQUENCE, SEQ_LIKE
from .base import Axes, RuleContext, rule


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
    if right in ctx.params and len(ctx.shape(right)) == 2 and table.get(cols).kind == "unknown":
        # features times a weight matrix: a projection (GPT-2's Conv1D is `addmm(b, x, W)`)
        table.specify(cols, "feature", label=f"features made by {ctx.event.module or 'a projection'}")
    if not (vector_left or vector_right):
        rows, cols = score_roles(ctx, rows, cols)
    axes = batch + ([] if vector_left else [rows]) + ([] if vector_right else [cols])
    return tuple(axes) if len(axes) == len(out_shape) else ctx.fresh(out_shape)


def score_roles(ctx: RuleContext, rows: int, cols: int) -> tuple[int, int]:
    """Rows of a product of two sequences are query positions, its columns key positions.

    An earlier pass that saw this product's output normalized and contracted with values
    (`ctx.keys_in_rows` is not None) makes its rows and columns positions whatever their
    inputs were named, and says which side the keys are on: the side the values are summed
    over, so `k @ q.T` scores read right too.
    """
    table, index, known = ctx.table, ctx.event.index, ctx.keys_in_rows
    row, col = table.get(rows), table.get(cols)
    same = table.base_of(rows) == table.base_of(cols)
    if known is not None:
        for axis in (rows, cols):  # positions the model made (latents, object queries) are a sequence now
            table.specify(table.base_of(axis), "seq", name=MADE_SEQUENCE, seq=f"{MADE_SEQUENCE}@{index}.{axis}",
                          label="positions an attention block runs over")
    if known is not None or same or (row.kind in SEQ_LIKE and col.kind in SEQ_LIKE):
        query, key = (cols, rows) if known else (rows, cols)
        query, key = table.role_copy(query, "query", index), table.role_copy(key, "key", index)
        ctx.facts.query, ctx.facts.key = query, key
        return (key, query) if known else (query, key)
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
    ctx.table.patches_embedded(x[-1])
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
            chosen[rows[-1]], chosen[cols[-1]] = score_roles(ctx, chosen[rows[-1]], chosen[cols[-1]])
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
    ctx.facts.query, ctx.facts.key = rows, cols
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

@rule("outer", "ger")
def outer_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.inputs[0] + ctx.inputs[1]]
