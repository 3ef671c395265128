"""batch-leak (from the axes): a reshape that tears the batch axis into another mixes the samples,
and so does a statistic over the batch that is applied to every sample (`batch_statistic`).

`x.reshape(B, T * d)` on a sequence-first `(T, B, d)` tensor, or `x.view(T, B, d)` on a
batch-first one, gives rows that hold pieces of several samples: from there on, one
sample's result depends on the others. A reshape that only merges the batch with other
axes in order (`B·T` for a linear layer) is not a tear, nor is one that keeps the batch outermost and
folds chunks of a sample into it (`(b c) m d`) or groups whole consecutive samples into a row
(the beams of one example, `(N, V) -> (N // beams, beams * V)`): whether the model may mix
those is the batch witness's to say. Heads torn with the batch are
head-merge's; the witness of the same name finds the leaks no reshape explains.
"""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .batch_statistic import batch_statistics
from .heads import torn_reshapes


WORDS = {"seq": "positions", "pos": "positions", "spatial": "positions", "feature": "features"}


class BatchTear(Check):
    code = "batch-leak"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for event, pieces, splitting in torn_reshapes(analysis):
            kinds = set(pieces) | _within_merged(analysis, event)
            others = kinds - {"batch", "one", "unknown", "merged"}
            heads_split = splitting and {"seq", "feature"} <= kinds  # head-split's finding, at this reshape
            if "batch" in kinds and others and "head" not in kinds and not heads_split \
                    and not _in_sample_order(analysis, event):
                torn = " and ".join(sorted({WORDS.get(k, k) for k in others}))
                yield self.at(
                    analysis, event.index,
                    f"{event.op} of [{analysis.describe(event.inputs[0])}] to {list(event.outputs[0].shape)} tears "
                    f"the batch axis into the {torn}: each row of the result holds pieces of several samples",
                    hint="bring the batch to the front first (x.transpose(0, 1) for (T, B, d)), then reshape",
                )
        for event, message, hint in batch_statistics(analysis):
            yield self.at(analysis, event, message, hint=hint)


def _within_merged(analysis, event) -> set[str]:
    """The kinds inside the merged pieces a reshape tore (the batch in `B·S`, where the pieces' own
    reading names the merge after its positions), so a batch folded with other axes and then torn
    is seen; a batch of heads (`B·H`) stays head-merge's."""
    table, found = analysis.table, set()
    for axis in analysis.axes.get(event.outputs[0].vid, ()):
        record = table.get(axis)
        if record.kind != "mixed" or record.origin != event.index:
            continue
        todo = [part for part in record.parts if table.get(part).kind == "merged"]
        while todo:
            for part in table.get(todo.pop()).parts:
                found.add(table.get(part).kind)
                if table.get(part).kind == "merged":
                    todo.append(part)
    return found


def _in_sample_order(analysis, event) -> bool:
    """Whether the reshape keeps the batch outermost and each row within one sample, or whole
    consecutive samples in each row (by a size of its own: one another dim has is that dim
    mistaken for the batch)."""
    source, out = event.inputs[0], event.outputs[0].shape
    kinds = [analysis.table.get(axis).kind for axis in analysis.axes_of(source)]
    if not kinds or kinds[0] != "batch" or not out:
        return False
    size = source.shape[0]
    if out[0] in source.shape[1:]:  # that dim taken for the batch: `(T, B, d).reshape(B, T * d)`, `view(T, B, d)`
        return False
    # each row within one sample (chunks of a sequence folded into the batch, `(b c) m d`), or whole samples
    return out[0] % size == 0 if out[0] >= size else size % out[0] == 0
