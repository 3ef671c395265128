"""nan: the first op that turned finite inputs into NaN or Inf, with its likely cause."""

from __future__ import annotations

import math
from typing import Iterable

from ..findings import Finding
from .base import Check

CAUSES = {
    "log": "log of a value <= 0 (a weight that is exactly 0?)",
    "sqrt": "sqrt of a negative value", "rsqrt": "rsqrt of a value <= 0",
    "div": "division by zero", "exp": "exp overflow (scores too large for the dtype)",
    "pow": "power overflow", "mul": "0 × inf", "softmax": "a softmax over a row of -inf",
}
MASKING = frozenset({"masked_fill", "where", "full", "fill", "full_like", "new_full"})


class Nan(Check):
    code = "nan"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        flow = analysis.flow
        for event in analysis.recording.events:
            if not event.stats or not any(s is not None and s.nonfinite for s in event.stats):
                continue
            inputs = [_stats(analysis, meta.vid) for meta in event.inputs]
            made_nan = any(s is not None and s.nan for s in event.stats) and not any(
                s is not None and s.nan for s in inputs)
            made_inf = not any(s is not None and s.nonfinite for s in inputs) and not _writes_inf(event)
            if event.op in ("softmax",) and any(s is not None and s.nonfinite for s in inputs):
                made_nan = False  # rows of -inf: a masked row, reported by fully-masked-row
            if made_nan or made_inf:
                kind = "NaN" if made_nan else "Inf"
                cause = CAUSES.get(event.op, "")
                yield self.at(
                    analysis, event.index,
                    f"{event.op} turned finite inputs into {kind}" + (f": {cause}" if cause else "")
                    + f" (output [{analysis.describe(event.outputs[0])}])",
                    hint="everything computed from this value is NaN/Inf too; guard the input of this op",
                )
                return


def _stats(analysis, vid: int):
    producer = analysis.flow.made_by(vid)
    if producer is None:
        value = analysis.flow.value(vid)
        if value is not None and value.is_floating_point():
            from ..values import value_stats
            return value_stats(value)
        return None
    position = next(i for i, m in enumerate(producer.outputs) if m.vid == vid)
    return producer.stats[position] if position < len(producer.stats) else None


def _writes_inf(event) -> bool:
    if event.op in MASKING:
        return True
    values = list(event.args) + list(event.kwargs.values())
    return any(isinstance(v, float) and math.isinf(v) for v in values)
