"""Rules for ops that keep their input's axes or reduce some of them: normalizations, masks, reductions."""

from __future__ import annotations

from .base import Axes, RuleContext, broadcast_axes, elementwise, normalize_dims, rule


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


@rule("quantile", "nanquantile")
def quantile_rule(ctx: RuleContext) -> list[Axes]:
    """`quantile(x, q, dim, keepdim)`: the reduced dim gone (or kept as 1), led by q's axis when q is a
    1-d tensor of quantiles."""
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    dim = ctx.event.arg(2, "dim")
    if not isinstance(dim, int) or isinstance(dim, bool):
        return [ctx.fresh(out)]
    reduced = normalize_dims(dim, len(shape))
    ctx.facts.normalized = reduced
    if ctx.event.arg(3, "keepdim"):
        rest = tuple(ctx.table.new("one", 1) if i in reduced else a for i, a in enumerate(ctx.inputs[0]))
    else:
        rest = tuple(a for i, a in enumerate(ctx.inputs[0]) if i not in reduced)
    quantiles = ctx.inputs[1] if len(ctx.inputs) > 1 and len(ctx.inputs[1]) == 1 else ()
    axes = tuple(quantiles) + rest
    return [axes if len(axes) == len(out) else ctx.fresh(out)]


@rule("bucketize", "searchsorted")
def lookup_rule(ctx: RuleContext) -> list[Axes]:
    """Each value looked up in sorted boundaries: the result has the values' axes (`bucketize(x,
    edges)`; `searchsorted(edges, x)`, whose edges may have rows of their own per sample)."""
    values = 0 if ctx.event.op == "bucketize" else 1
    out = ctx.event.outputs[0].shape
    if len(ctx.inputs) <= values or tuple(ctx.event.inputs[values].shape) != tuple(out):
        return [ctx.fresh(out)]
    if ctx.event.op == "searchsorted" and len(ctx.inputs[0]) == len(out):  # per-row edges: leading dims align
        for edge, value in zip(ctx.inputs[0][:-1], ctx.inputs[values][:-1]):
            ctx.table.unify(value, edge, ctx.event.index)
    return [ctx.inputs[values]]
