"""head-split: splitting (B, T, d) into heads must keep token positions and features apart."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .heads import torn_reshapes


class HeadSplit(Check):
    code = "head-split"
    severity = "error"
    hints = {"batch-first": "split as x.view(B, T, H, d_h).transpose(1, 2), not x.view(B, H, T, d_h)",
             "seq-first": "split as x.view(T, B * H, d_h).transpose(0, 1), not x.view(B * H, T, d_h)"}

    def run(self, analysis) -> Iterable[Finding]:
        reported = set()
        for event, pieces, splitting in torn_reshapes(analysis):
            kinds = set(pieces)
            if splitting and "seq" in kinds and kinds & {"feature", "head"}:
                reported.add(event.index)
                if _holds_heads(analysis, event):
                    yield self.at(
                        analysis, event.index,
                        f"{event.op} to {list(event.outputs[0].shape)} splits [{analysis.describe(event.inputs[0])}] "
                        "into heads again: it holds its heads already, and the new axes mix heads and token positions",
                        hint="it is (B*H, T, d_h) already: use it as it is, or view(B, H, T, d_h) to take the heads apart",
                    )
                    continue
                yield self.at(
                    analysis, event.index,
                    f"{event.op} to {list(event.outputs[0].shape)} tears the token and feature axes of "
                    f"[{analysis.describe(event.inputs[0])}] into each other: the new 'sequence' axis mixes "
                    "positions and features",
                    hint=self.hints[analysis.layout.name],
                )
        yield from self._attention_over_features(analysis, reported)

    def _attention_over_features(self, analysis, reported: set[int]) -> Iterable[Finding]:
        """Sizes that happen to fit (T == H) hide the tear; the attention then runs over features."""
        table = analysis.table
        for block in analysis.blocks:
            if block.product_event is None:
                continue  # weights a layer predicts (deformable attention's points, a router's experts): no queries met keys
            if _contracts_tokens(analysis, block):
                continue  # channel attention (XCiT): q·kᵀ sums over the tokens by design, maps are d × d
            for axis in block.contracted_axes[:1]:
                record = table.get(axis)
                base = table.get(record.base) if record.role and record.base is not None else record
                origin = base.origin
                if base.kind not in ("head",) and not (base.kind == "feature" and base.base is not None):
                    continue
                if origin is None or origin in reported:
                    continue
                reported.add(origin)
                event = analysis.recording.events[origin]
                yield self.at(
                    analysis, origin,
                    f"after {event.op} to {list(event.outputs[0].shape)}, attention runs over "
                    f"{table.describe(axis)}, a piece of the feature axis, instead of over token positions: "
                    "the split put features where the sequence should be",
                    hint=self.hints[analysis.layout.name],
                )


def _holds_heads(analysis, event) -> bool:
    """Whether the reshaped value was split into heads before (a B·H axis)."""
    table = analysis.table
    return any(any(table.get(part).kind == "head" for part in table.get(axis).parts)
               for axis in analysis.axes_of(event.inputs[0]))


def _contracts_tokens(analysis, block) -> bool:
    """Whether the block's query-key product contracts a sequence (its tokens) rather than features."""
    if block.product_event is None:
        return False
    event = analysis.recording.events[block.product_event]
    for position, dim in analysis.facts[block.product_event].contracted:
        axes = analysis.axes.get(event.inputs[position].vid, ())
        if dim < len(axes) and analysis.table.is_positions(axes[dim]):
            return True
    return False
