"""batch-leak (from the axes): a reshape that tears the batch axis into another mixes the samples.

`x.reshape(B, T * d)` on a sequence-first `(T, B, d)` tensor, or `x.view(T, B, d)` on a
batch-first one, gives rows that hold pieces of several samples: from there on, one
sample's result depends on the others. A reshape that only merges the batch with other
axes in order (`B·T` for a linear layer) is not a tear. Heads torn with the batch are
head-merge's; the witness of the same name finds the leaks no reshape explains.
"""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .heads import torn_reshapes


class BatchTear(Check):
    code = "batch-leak"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for event, pieces, splitting in torn_reshapes(analysis):
            kinds = set(pieces)
            others = kinds - {"batch", "one", "unknown"}
            heads_split = splitting and {"seq", "feature"} <= kinds  # head-split's finding, at this reshape
            if "batch" in kinds and others and "head" not in kinds and not heads_split:
                torn = " and ".join(sorted({"seq": "positions", "feature": "features"}.get(k, k) for k in others))
                yield self.at(
                    analysis, event.index,
                    f"{event.op} of [{analysis.describe(event.inputs[0])}] to {list(event.outputs[0].shape)} tears "
                    f"the batch axis into the {torn}: each row of the result holds pieces of several samples",
                    hint="bring the batch to the front first (x.transpose(0, 1) for (T, B, d)), then reshape",
                )
