"""Rules for ops that make tensors: fresh axes, positions from arange, copies and conversions of their input's axes."""

from __future__ import annotations

from .base import Axes, RuleContext, elementwise, rule


@rule("ones", "zeros", "full", "empty", "rand", "randn", "randint", "eye", "tensor", "as_tensor",
      "new_ones", "new_zeros", "new_full", "new_empty", "new_tensor", "linspace", "tril_indices")
def creation_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.fresh(out.shape) for out in ctx.event.outputs]


@rule("arange")
def arange_rule(ctx: RuleContext) -> list[Axes]:
    """`arange(T)` counts positions; `arange(0, d, 2)` (rotary or sinusoidal frequencies) steps over
    features, and is no position table."""
    args = ctx.event.args
    step = ctx.event.kwargs.get("step", args[2] if len(args) >= 3 else 1)
    kind = "pos" if step in (1, None) else "unknown"
    return [ctx.fresh(out.shape, kind=kind) for out in ctx.event.outputs]


@rule("ones_like", "zeros_like", "full_like", "empty_like", "rand_like", "randn_like")
def like_rule(ctx: RuleContext) -> list[Axes]:
    return [ctx.inputs[0]]


@rule("type_as", "to", "type", "float", "half", "double", "bfloat16", "int", "long", "bool", "contiguous", "clone",
      "detach", "cpu", "cuda")
def conversion_rule(ctx: RuleContext) -> list[Axes]:
    """A copy or a change of dtype or device keeps its input's axes (`x.type_as(q)`: q only lends its dtype)."""
    return [ctx.inputs[0] if out.shape == ctx.shape(0) else ctx.fresh(out.shape) for out in ctx.event.outputs]


@rule("pow", "rpow", "float_power", "exp", "exp2")
def power_rule(ctx: RuleContext) -> list[Axes]:
    """A power or exponential of positions is one constant per index (ALiBi's slopes, `base ** arange(H)`;
    frequencies), no longer a position: only the arange itself, or a linear function of it, is."""
    table = ctx.table
    return [tuple(table.new("unknown", table.get(axis).size, origin=ctx.event.index)
                  if table.get(axis).kind == "pos" else axis for axis in axes) for axes in elementwise(ctx)]
