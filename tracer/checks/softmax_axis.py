"""softmax-axis: the weights must be normalized over the axis they are summed over against the values."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check


class SoftmaxAxis(Check):
    code = "softmax-axis"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        table = analysis.table
        for block in analysis.blocks:
            normalized, contracted = block.normalized_axis, block.contracted_axes
            if normalized is None or not contracted:
                continue
            norm, summed = table.get(normalized), table.get(contracted[0])
            if "unknown" in (norm.kind, summed.kind):
                continue  # no conclusion from axes we could not name
            scores = table.describe_shape(block.table_axes)
            norm_dim = block.dim_of(table, normalized)
            if not any(table.same(normalized, axis) for axis in contracted):
                key_dim = block.dim_of(table, contracted[0])
                dim_text = f"dim={norm_dim - len(block.table_axes)}" if norm_dim is not None else "one axis"
                yield self.at(
                    analysis, block.norm_event,
                    f"softmax normalizes over {dim_text} ({_what(norm)} {table.describe(normalized)}) of the "
                    f"scores [{scores}]; the weights are summed against the values over "
                    f"{table.describe(contracted[0])} ({_what(summed)})",
                    hint=(f"normalize over the key axis: use dim={key_dim - len(block.table_axes)}"
                          if key_dim is not None else "normalize over the axis the values are summed over"),
                )
            elif norm.kind in ("batch", "head"):
                why = analysis.evidence(normalized, "batch")
                yield self.at(
                    analysis, block.norm_event,
                    f"attention normalizes over the {norm.kind} axis {table.describe(normalized)} of the scores "
                    f"[{scores}]: every sample attends to the other samples of the batch instead of to its own positions"
                    + (f" ({why})" if why else ""),
                    hint="a torch attention module reads (T, B, d) unless built with batch_first=True: set "
                         "batch_first=True, or transpose the input to (T, B, d)",
                )


def _what(axis) -> str:
    if axis.role:
        return f"{axis.role} positions"
    return {"batch": "the batch", "head": "heads", "feature": "features", "seq": "positions",
            "pos": "positions", "mixed": "a mixed axis"}.get(axis.kind, axis.kind)
