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
    n = len(out_shape)
    if all(ctx.shape(position) == out_shape for position in positions):  # same shapes: unify dim by dim
        first = ctx.inputs[positions[0]]
        for position in positions[1:]:
            for i, (a, b) in enumerate(zip(first, ctx.inputs[position])):
                if a != b and out_shape[i] != 1:
                    ctx.table.unify(a, b, ctx.event.index)
        return tuple(first)
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
    if all(shape == shapes[0] for shape in shapes):  # the common case: no broadcasting at all
        return shapes[0] if shapes else ()
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
    if shapes and all(out.shape == (broadcast := broadcast_shape(shapes)) for out in outputs[:1]) and \
            all(out.shape == broadcast for out in outputs):
        return elementwise(ctx)
    return [ctx.fresh(out.shape) for out in outputs]
