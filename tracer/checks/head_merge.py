"""head-merge: merging heads back must not interleave head and sequence positions."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .heads import torn_reshapes


HINTS = {"batch-first": "merge as x.transpose(1, 2).reshape(B, T, d): bring T next to B first",
         "seq-first": "merge as x.transpose(0, 1).reshape(T, B, d): bring T back in front of B·H first"}


CONCATENATED = "join the heads' outputs along the features, torch.cat(outs, dim=-1), not along the positions"


class HeadMerge(Check):
    code = "head-merge"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        for event, pieces, splitting in torn_reshapes(analysis):
            kinds = set(pieces)
            behind = _positions_behind(pieces) and not _heads_elsewhere(analysis, event)
            if not splitting and ({"head", "seq"} <= kinds or behind):
                laid_along_time = pieces[:2] == ("head", "seq") and not _heads_elsewhere(analysis, event)
                yield self.at(
                    analysis, event.index,
                    f"{event.op} of [{analysis.describe(event.inputs[0])}] to {list(event.outputs[0].shape)} "
                    "merges heads back so that the merged axes mix head and sequence positions",
                    hint=CONCATENATED if laid_along_time else HINTS[analysis.layout.name],
                )
            elif {"head", "batch"} <= kinds:
                yield self.at(
                    analysis, event.index,
                    f"{event.op} of [{analysis.describe(event.inputs[0])}] to {list(event.outputs[0].shape)} "
                    "unfolds the batch·heads axis in another order than it was folded: each piece mixes samples "
                    "with heads, so a sample's output holds other samples' heads",
                    hint="unfold B·H as (B, H), the order it was folded in (einops: '(b h) t e -> b t (h e)')",
                )


def _positions_behind(pieces: tuple[str, ...]) -> bool:
    """Whether a merged axis has token positions behind another piece (neither the batch, whose
    tears are batch-leak's, nor positions): in a head-major `(B, H, T, d_h)` whatever stands in
    front of the positions is the heads, even when a torn split left them looking like a piece
    of something else."""
    return "seq" in pieces[1:] and "batch" not in pieces and pieces[0] not in ("one", "seq")


def _heads_elsewhere(analysis, event) -> bool:
    """Whether the reshaped value has its heads as an axis of their own: then what stands in front of
    the positions is something else folded in (chunks of a sequence folded into the batch)."""
    table = analysis.table
    return any(table.get(axis).kind == "head" for axis in analysis.axes_of(event.inputs[0]))
