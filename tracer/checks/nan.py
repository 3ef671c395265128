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
    """Reported only when the model's outputs are not finite: -inf masks and guarded logs are fine."""

    code = "nan"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        outputs = analysis.recording.outputs
        for field in ("nan", "nonfinite"):
            bad = [meta for meta in outputs if _count(analysis, meta.vid, field)]
            if bad:
                origin = _origin(analysis, bad[0].vid, field)
                if origin is not None:
                    yield self._finding(analysis, origin, "NaN" if field == "nan" else "Inf")
                return

    def _finding(self, analysis, event, kind: str) -> Finding:
        cause = CAUSES.get(event.op, "")
        infinite = [m for m in event.inputs if _count(analysis, m.vid, "nonfinite")]
        source = _origin(analysis, infinite[0].vid, "nonfinite") if infinite else None
        made = "finite inputs" if not infinite else "an infinite input"
        came = ""
        if source is not None:
            came = f"; the inf came from {source.op} at line {source.line}"
            came += f" ({CAUSES[source.op]})" if source.op in CAUSES else ""
        return self.at(
            analysis, event.index,
            f"{event.op} turned {made} into {kind}" + (f": {cause}" if cause else "") + came
            + f" (output [{analysis.describe(event.outputs[0])}]); the model's output is not finite",
            hint="everything computed from this value is NaN/Inf too; guard the input of the op that made it",
        )


def _count(analysis, vid: int, field: str) -> int:
    stats = _stats(analysis, vid)
    return getattr(stats, field) if stats is not None else 0


def _origin(analysis, vid: int, field: str):
    """Walk back along values carrying the defect to the op that made it from clean inputs."""
    flow = analysis.flow
    event = flow.made_by(vid)
    while event is not None:
        tainted = [meta for meta in event.inputs if _count(analysis, meta.vid, field)]
        if not tainted:
            if field == "nonfinite" and _writes_inf(event):
                return None  # a deliberate -inf (a mask) that reached the output
            if event.op == "softmax" and any(_count(analysis, m.vid, "nonfinite") for m in event.inputs):
                return None  # a row of -inf: reported by fully-masked-row
            return event
        event = flow.made_by(tainted[0].vid)
    return None


def _stats(analysis, vid: int):
    return analysis.recording.stats_of(vid)


def _writes_inf(event) -> bool:
    if event.op in MASKING:
        return True
    values = list(event.args) + list(event.kwargs.values())
    return any(isinstance(v, float) and math.isinf(v) for v in values)
