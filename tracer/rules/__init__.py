"""Axis rules: one function per op family maps the axes of an op's inputs to its outputs.

The families live in their own modules and register themselves with `base.rule` on import;
`infer` is the one entry point the analysis calls.
"""

from __future__ import annotations

from ..axes import AxisTable
from ..events import OpEvent
from . import creation, indexing, products, recurrent, reductions, shapes, spatial  # noqa: F401  (they register their rules)
from .base import RULES, Axes, OpFacts, RuleContext, fallback

__all__ = ["Axes", "OpFacts", "RULES", "infer"]


def infer(table: AxisTable, event: OpEvent, inputs: list[Axes],
          keys_in_rows: bool | None = None, written: bool = False,
          params: frozenset[int] = frozenset()) -> tuple[list[Axes], OpFacts]:
    """Output axes of `event` (one tuple per output) and what the rule learned about it.

    `analysis.infer_axes` runs these steps inline, once per op and pass: a change here goes there too.

    `keys_in_rows`: evidence from an earlier pass that this product makes attention scores,
    and on which side its keys are (None when it is not known to). `written`: the first input
    was written in place earlier in the forward pass; `params`: which inputs are parameters.
    """
    facts = OpFacts()
    ctx = RuleContext(table, event, inputs, facts, keys_in_rows, written, params)
    function = RULES.get(event.op, fallback)
    try:
        outputs = function(ctx)
    except (IndexError, KeyError, TypeError, ValueError, ZeroDivisionError):
        outputs = [ctx.fresh(out.shape) for out in event.outputs]  # an unexpected argument form
    fixed = []
    for out, axes in zip(event.outputs, outputs):
        fixed.append(axes if len(axes) == len(out.shape) else ctx.fresh(out.shape))
    return fixed, facts
