"""Rules for ops over grids: convolutions, pooling, unfold. Images and audio become sequences here.

A convolution keeps the batch, makes a feature axis of its output channels (as a Linear does
of its outputs) and leaves each grid dim either as it was (same length) or as a new, coarser
grid axis. `unfold` cuts a grid into patches: one axis of patches, one of patch features.
These axes are `spatial`: positions of a grid, which become a sequence when flattened and
attended over (a ViT's patches, a DETR feature map, Whisper's frames).
"""

from __future__ import annotations

from .base import Axes, RuleContext, rule

GRID_NAMES = {1: ("T",), 2: ("H", "W"), 3: ("D", "H", "W")}
CONVOLUTIONS = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")
POOLS = ("max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
         "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d",
         "max_pool1d_with_indices", "max_pool2d_with_indices", "interpolate", "upsample")


def _grid(ctx: RuleContext, spatial: int) -> tuple[list[int], list[int]]:
    """(leading axes: batch?, channels) and grid axes of input 0, naming what was still unnamed."""
    x, table, index = ctx.inputs[0], ctx.table, ctx.event.index
    leading, grid = list(x[:-spatial]), list(x[-spatial:])
    if len(leading) == 2:
        table.specify(leading[0], "batch", name="B", label="the batch")
    if leading:
        table.specify(leading[-1], "feature", name="C", label="channels")
    for axis, name in zip(grid, GRID_NAMES.get(spatial, ())):
        table.specify(axis, "spatial", name=name, label=f"grid positions ({name}) of the input", origin=index)
    return leading, grid


def _resized(ctx: RuleContext, grid: list[int], out_sizes: tuple[int, ...]) -> list[int]:
    """Grid axes of the output: the same axis where the length is kept, a coarser new one where not."""
    table, index, axes = ctx.table, ctx.event.index, []
    for axis, size in zip(grid, out_sizes):
        record = table.get(axis)
        if record.size == size:
            axes.append(axis)
            continue
        kind = record.kind if record.kind in ("seq", "spatial") else "spatial"
        name = (record.name or "s").lower() if kind == "spatial" else f"{record.name or 'T'}'"
        seq = f"{name}@{index}" if kind == "seq" else None
        axes.append(table.new(kind, size, name=name, seq=seq, origin=index,
                              label=f"{record.display} resampled to {size} positions"))
    return axes


@rule(*CONVOLUTIONS)
def convolution_rule(ctx: RuleContext) -> list[Axes]:
    weight = ctx.inputs[1]
    spatial = len(weight) - 2
    leading, grid = _grid(ctx, spatial)
    out = ctx.event.outputs[0].shape
    transposed = "transpose" in ctx.event.op
    made, taken = (weight[1], weight[0]) if transposed else (weight[0], weight[1])
    groups = ctx.event.arg(7 if transposed else 6, "groups", 1)
    if groups == 1 and leading:
        ctx.table.unify(taken, leading[-1], ctx.event.index)
    ctx.table.specify(made, "feature", label=f"channels made by {ctx.event.module or 'a convolution'}")
    axes = leading[:-1] + [made] + _resized(ctx, grid, out[-spatial:])
    return [tuple(axes)]


@rule(*POOLS)
def pool_rule(ctx: RuleContext) -> list[Axes]:
    out = ctx.event.outputs[0].shape
    x = ctx.inputs[0]
    spatial = max(len(x) - 2, 1)
    leading, grid = _grid(ctx, spatial)
    result = []
    for meta in ctx.event.outputs:
        axes = leading + _resized(ctx, grid, meta.shape[-spatial:])
        result.append(tuple(axes) if len(axes) == len(meta.shape) else ctx.fresh(meta.shape))
    return result if result else [ctx.fresh(out)]


@rule("pad")
def pad_rule(ctx: RuleContext) -> list[Axes]:
    """`F.pad(x, (left, right, top, bottom, ...))` lengthens the last dims, two numbers per dim from
    the end. A padded sequence or grid is the original joined with cells of no position, so its
    positions still read (and a slice taking the original back gets it); other dims keep their axes."""
    x, out, index = ctx.inputs[0], ctx.event.outputs[0].shape, ctx.event.index
    pads = ctx.event.arg(1, "pad")
    if not isinstance(pads, (list, tuple)) or len(x) != len(out) or len(pads) > 2 * len(x) or \
            not all(isinstance(amount, int) for amount in pads):
        return [ctx.fresh(out)]
    axes, table = list(x), ctx.table
    for step in range(len(pads) // 2):
        d = len(x) - 1 - step
        before, after = pads[2 * step], pads[2 * step + 1]
        if before == after == 0:
            continue
        record = table.get(axes[d])
        if before < 0 or after < 0 or record.kind not in ("seq", "spatial", "feature"):
            axes[d] = table.new("unknown", out[d], origin=index)
            continue
        if record.kind == "feature":
            axes[d] = table.new("feature", out[d], origin=index, label=f"{record.display} padded to {out[d]}")
            continue
        padding = [table.new("unknown", amount, origin=index, label="padding") for amount in (before, after)]
        pieces = ([padding[0]] if before else []) + [axes[d]] + ([padding[1]] if after else [])
        axes[d] = table.new(record.kind, out[d], name=record.name if record.kind == "spatial" else "", origin=index,
                            seq=f"{record.seq or record.display}+pad@{index}" if record.kind == "seq" else None,
                            joined=tuple(pieces), label=f"{record.display} padded to {out[d]} positions")
    return [tuple(axes)]


@rule("unfold", "im2col")
def unfold_rule(ctx: RuleContext) -> list[Axes]:
    """`F.unfold(x, k)` on (B, C, H, W): (B, C·k·k, L), L patches of C·k·k features each."""
    out = ctx.event.outputs[0].shape
    if ctx.event.target.startswith("torch.Tensor"):
        return [_windows(ctx)]
    if len(ctx.inputs[0]) not in (3, 4) or len(out) not in (2, 3):
        return [ctx.fresh(out)]
    leading, _ = _grid(ctx, 2)
    table, index = ctx.table, ctx.event.index
    features = table.new("feature", out[-2], name="C·k·k", origin=index, label="features of a patch")
    patches = table.new("spatial", out[-1], name="L", origin=index, label="patches cut from the grid")
    return [tuple(leading[:-1] + [features, patches])]


def _windows(ctx: RuleContext) -> Axes:
    """`x.unfold(dim, size, step)`: a sliding window over one dim. Every other dim keeps its axis (the
    batch stays the batch); the dim becomes the windows (patches of a series are a sequence of their
    own) and a new last dim the `size` entries of each window."""
    shape, out = ctx.shape(0), ctx.event.outputs[0].shape
    dim = ctx.event.arg(1, "dimension")
    if not isinstance(dim, int) or len(out) != len(shape) + 1 or not -len(shape) <= dim < len(shape):
        return ctx.fresh(out)
    table, index, dim = ctx.table, ctx.event.index, dim % len(shape)
    axes = list(ctx.inputs[0])
    record = table.get(axes[dim])
    positional = record.kind == "seq" or table.is_positions(axes[dim])
    axes[dim] = table.new("seq" if positional else "unknown", out[dim], origin=index,
                          seq=f"windows of {record.seq or record.display}@{index}" if positional else None,
                          label=f"windows of {record.display}")
    inside = table.new("feature" if positional else "unknown", out[-1], origin=index,
                       label=f"the entries of a window of {record.display}")
    return tuple(axes) + (inside,)
