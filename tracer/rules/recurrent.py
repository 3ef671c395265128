"""Recurrent layers (`nn.GRU`, `nn.LSTM`, `nn.RNN` and their cells): the batch and the time steps
pass through, the hidden state's features are new.

An RNN keeps its input's batch and sequence dims in place (batch_first or not) and replaces
the features; its final states `(layers·directions, B, H)` keep only the batch. Without these
rules everything after an RNN encoder (additive attention over its states, a pointer network)
would have axes of unknown meaning, and no check could judge it.
"""

from __future__ import annotations

from .base import Axes, RuleContext, rule


def _features(ctx: RuleContext, size: int) -> int:
    return ctx.table.new("feature", size, origin=ctx.event.index,
                         label=f"hidden state of {ctx.event.module or 'a recurrent layer'}")


@rule("gru", "lstm", "rnn_tanh", "rnn_relu")
def recurrent_rule(ctx: RuleContext) -> list[Axes]:
    x = ctx.inputs[0]
    outputs = ctx.event.outputs
    if len(x) != 3 or len(outputs[0].shape) != 3:
        return [ctx.fresh(out.shape) for out in outputs]
    time = x[1] if _batch_first(ctx) else x[0]
    if ctx.table.get(time).kind == "unknown":  # read step by step, in order: positions, whatever made them
        steps = ctx.table.new("seq", ctx.table.get(time).size, name="T", seq=f"steps@{ctx.event.index}",
                              origin=ctx.event.index, label=f"the steps {ctx.event.module or 'a recurrent layer'} reads")
        ctx.table.unify(time, steps, ctx.event.index)
    sequence = x[:2] + (_features(ctx, outputs[0].shape[-1]),)
    batch = x[0] if _batch_first(ctx) else x[1]
    states = [ctx.fresh(out.shape) for out in outputs[1:]]
    states = [axes[:1] + (batch,) + axes[2:] if len(axes) == 3 else axes for axes in states]
    return [sequence, *states]


def _batch_first(ctx: RuleContext) -> bool:
    flag = ctx.event.args[-1] if ctx.event.args else ctx.event.kwargs.get("batch_first")
    return flag is True


@rule("gru_cell", "lstm_cell", "rnn_tanh_cell", "rnn_relu_cell")
def cell_rule(ctx: RuleContext) -> list[Axes]:
    """One step of a recurrent cell: row i of the input updates row i of the state (`hx`)."""
    x = ctx.inputs[0]
    state = ctx.inputs[1] if len(ctx.inputs) > 1 else ()
    if len(x) == 2 and len(state) == 2 and ctx.shape(0)[0] == ctx.shape(1)[0]:
        ctx.table.unify(x[0], state[0], ctx.event.index)
    return [x[:-1] + (_features(ctx, out.shape[-1]),) if len(out.shape) == len(x) else ctx.fresh(out.shape)
            for out in ctx.event.outputs]
