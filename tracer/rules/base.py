"""What every axis rule shares: the context a rule reads, the registry, broadcasting.

A rule gets the event, the axes of each tensor input (in `event.inputs` order) and the
table, and returns the axes of each output. An op without a rule falls back to
broadcasting when the output's shape is the broadcast of its inputs' shapes, and to fresh
axes of unknown meaning otherwise, from which no check concludes anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..axes import AxisTable
from ..events import TENSOR_SLOT, OpEvent

Axes = tuple[int, ...]


@dataclass(slots=True)
class OpFacts:
    """What a rule learned about one op beyond its output axes (read by the block finder)."""

    contracted: list[tuple[int, int]] = field(default_factory=list)  # (input position, dim) pairs
    normalized: tuple[int, ...] = ()  # dims a softmax / norm / reduction works over (input dims)
    query: int | None = None  # a score product's query axis (its rows, unless evidence says otherwise)
    key: int | None = None  # ... and its key axis


@dataclass(slots=True)
class RuleContext:
    table: AxisTable
    event: OpEvent
    inputs: list[Axes]
    facts: OpFacts
    keys_in_rows: bool | None = None  # an earlier pass found this product to make attention scores,
    # with the keys in its rows (k @ q.T) or, as usual, in its columns; None: not known to be attention
    written: bool = False  # the first input was written in place earlier in the forward (a cache, not a table)
    params: frozenset[int] = frozenset()  # positions of the inputs that are the model's parameters

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
    metas, inputs, table, index = ctx.event.inputs, ctx.inputs, ctx.table, ctx.event.index
    shapes = [metas[position].shape for position in positions]
    for shape in shapes:
        if shape != out_shape:
            break
    else:  # same shapes: unify dim by dim
        first = inputs[positions[0]]
        for position in positions[1:]:
            i = 0
            for a, b in zip(first, inputs[position]):
                if a != b and out_shape[i] != 1:
                    table.unify(a, b, index)
                i += 1
        return tuple(first)
    n = len(out_shape)
    placed = [(shape, n - len(shape), inputs[position]) for position, shape in zip(positions, shapes)]
    result = []
    i = 0
    for size in out_shape:
        chosen = None
        for shape, offset, axes in placed:
            j = i - offset
            if j < 0 or (shape[j] == 1 and size != 1):
                continue
            axis = axes[j]
            chosen = axis if chosen is None else (table.unify(chosen, axis, index) if size != 1 else chosen)
        result.append(chosen if chosen is not None else table.new("one" if size == 1 else "unknown", size))
        i += 1
    return _outer_roles(ctx, tuple(result))


def _outer_roles(ctx: RuleContext, result: Axes) -> Axes:
    """One sequence broadcast against itself (`e_i[:, None] + e_j[None, :]`, the score table of additive
    or graph attention) becomes a table of its query positions (rows) against its key positions
    (columns), as a query-key product's does, so a softmax over the wrong one of the two is seen."""
    table = ctx.table
    dims: dict[int, list[int]] = {}
    for dim, axis in enumerate(result):  # the very same axis twice; a table of its two roles stays as it is
        record = table.get(axis)
        if record.kind == "seq" and record.seq:
            dims.setdefault(table.find(axis), []).append(dim)
    pairs = [found for found in dims.values() if len(found) == 2]
    if len(pairs) != 1:
        return result
    rows, cols = pairs[0]
    changed = list(result)
    changed[rows] = table.role_copy(result[rows], "query", ctx.event.index)
    changed[cols] = table.role_copy(result[cols], "key", ctx.event.index)
    return tuple(changed)


def broadcast_shape(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    if not shapes:
        return ()
    first = shapes[0]
    for shape in shapes:
        if shape != first:
            break
    else:  # the common case: no broadcasting at all
        return first
    n = max(len(s) for s in shapes)
    out = []
    for i in range(n):
        found = 1
        for s in shapes:
            j = i - (n - len(s))
            if j >= 0 and s[j] != 1:
                if found != 1 and s[j] != found:
                    return None
                found = s[j]
        out.append(found)
    return tuple(out)


def elementwise(ctx: RuleContext) -> list[Axes]:
    positions = list(range(len(ctx.inputs)))
    outputs = ctx.event.outputs
    first = outputs[0].shape if outputs else None
    return [broadcast_axes(ctx, positions, out.shape) if out.shape == first else ctx.fresh(out.shape) for out in outputs]


def fallback(ctx: RuleContext) -> list[Axes]:
    """Broadcasting when the shapes say so, unknown axes otherwise."""
    outputs = ctx.event.outputs
    if ctx.event.inputs:
        if not outputs:
            return []
        broadcast = broadcast_shape([m.shape for m in ctx.event.inputs])
        for out in outputs:
            if out.shape != broadcast:
                break
        else:
            return elementwise(ctx)
    return [ctx.fresh(out.shape) for out in outputs]
