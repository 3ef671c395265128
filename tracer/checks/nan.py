"""nan: a model output that is not finite is always an error, named where the first bad value appeared.

The finding stands at the first op that turned finite inputs into NaN (or Inf): a softmax
over a row where every key was masked, an exp that overflowed, a log of 0. Its notes say
where the Inf it consumed came from (the mask fill, the exp) and the path by which the bad
value reached the output (weights @ V, the output projection). A deliberate -inf in a mask
is no finding by itself; it is one the moment it reaches an output.
"""

from __future__ import annotations

import math
from typing import Iterable

from ..evidence.provenance import enclosing_function
from ..findings import Finding, Related
from .base import Check

CAUSES = {
    "log": "log of a value <= 0 (a weight that is exactly 0?)",
    "sqrt": "sqrt of a negative value", "rsqrt": "rsqrt of a value <= 0",
    "div": "division by zero", "exp": "exp overflow (scores too large for the dtype)",
    "pow": "power overflow", "mul": "0 × inf",
}
MASKING = frozenset({"masked_fill", "where", "full", "fill", "full_like", "new_full", "setitem"})
PATH_NOTES = 2


class Nan(Check):
    code = "nan"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        outputs = analysis.recording.outputs
        for field in ("nan", "nonfinite"):
            bad = [meta for meta in outputs if _count(analysis, meta.vid, field)]
            if bad:
                yield self._finding(analysis, bad[0].vid, field)
                return

    def _finding(self, analysis, vid: int, field: str) -> Finding:
        kind = "NaN" if field == "nan" else "Inf"
        chain = _chain(analysis, vid, field)
        if not chain:  # the output was never computed by a recorded op: an input or a buffer
            last = len(analysis.recording.events) - 1
            return self.at(analysis, max(last, 0), f"the model's output is {kind}, and no recorded op made it so: "
                           "an input, parameter or buffer is not finite", hint="check the inputs and the weights")
        origin = chain[-1]
        infinite = [m for m in origin.inputs if _count(analysis, m.vid, "nonfinite")]
        source, inf_chain = None, []
        if infinite:
            inf_chain = _chain(analysis, infinite[0].vid, "nonfinite")
            source = inf_chain[-1] if inf_chain else None
        cause = self._cause(origin, infinite, source)
        related = []
        if source is not None and source.file:
            role = "the -inf written here" if _writes_inf(source) else f"the inf made here by {source.op}"
            related.append(Related(source.file, source.line, enclosing_function(source.file, source.line), role))
        related += _path(chain, origin)
        return self.at(
            analysis, origin.index,
            f"{origin.op} turned {'an infinite input' if infinite else 'finite inputs'} into {kind}"
            + (f": {cause}" if cause else "")
            + f" (output [{analysis.describe(origin.outputs[0])}]); it reaches the model's output, which is not finite",
            hint=("give every real query at least one visible key, and fill masks with torch.finfo(dtype).min "
                  "rather than -inf if whole rows may be hidden" if origin.op == "softmax"
                  else "everything computed from this value is NaN/Inf too; guard the input of the op that made it"),
            related=tuple(related),
            came_from={(event.file, event.line) for event in inf_chain},  # where the Inf it consumed was made
        )

    @staticmethod
    def _cause(origin, infinite, source) -> str:
        if origin.op in ("softmax", "log_softmax") and infinite:
            return "a softmax over a row whose every score is -inf (every key masked): 0 / 0"
        if not infinite:
            return CAUSES.get(origin.op, "")
        if source is not None and _writes_inf(source):
            return f"an infinite value from a mask fill at line {source.line} reached it"
        if source is not None:
            made = f" ({CAUSES[source.op]})" if source.op in CAUSES else ""
            return f"inf from {source.op} at line {source.line}{made} reached it"
        return ""


def _count(analysis, vid: int, field: str) -> int:
    stats = analysis.recording.stats_of(vid)
    return getattr(stats, field) if stats is not None else 0


def _chain(analysis, vid: int, field: str) -> list:
    """Events from the one that made `vid` back along values carrying the defect to where it began."""
    chain, event = [], analysis.flow.made_by(vid)
    while event is not None:
        chain.append(event)
        tainted = [meta for meta in event.inputs if _count(analysis, meta.vid, field)]
        if not tainted:
            break
        event = analysis.flow.made_by(tainted[0].vid)
    return chain


def _path(chain: list, origin) -> list[Related]:
    """Up to two user lines, after the origin, by which the bad value travelled to the output."""
    notes, seen = [], {(origin.file, origin.line)}
    for event in reversed(chain[:-1]):
        if event.file and (event.file, event.line) not in seen:
            seen.add((event.file, event.line))
            notes.append(Related(event.file, event.line, enclosing_function(event.file, event.line),
                                 f"carried on to the output by {event.op} here"))
    return notes[:1] + notes[-1:] if len(notes) > PATH_NOTES else notes


def _writes_inf(event) -> bool:
    if event.op in MASKING:
        return True
    values = list(event.args) + list(event.kwargs.values())
    return any(isinstance(v, float) and math.isinf(v) for v in values)
