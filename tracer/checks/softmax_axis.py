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
            scores = table.describe_shape(block.table_axes)
            norm_dim = block.dim_of(table, normalized)
            if "unknown" in (norm.kind, summed.kind) and (norm_dim is None or block.dim_of(table, contracted[0])
                                                          in (None, norm_dim)):
                continue  # unnamed axes: only two distinct dims of the score table itself are a conclusion
            if block.by_agreement and norm.kind not in ("batch", "head"):
                continue  # routing by agreement: the outputs compete for each input (capsules), by design
            if not any(table.same(normalized, axis) or _sink_of(table, normalized, axis) for axis in contracted):
                key_dim = block.dim_of(table, contracted[0])
                spell = _spelling(analysis, block)
                dim_text = f"dim={spell(norm_dim)}" if norm_dim is not None else "one axis"
                yield self.at(
                    analysis, block.norm_event,
                    f"softmax normalizes over {dim_text} ({_what(norm)} {table.describe(normalized)}) of the "
                    f"scores [{scores}]; the weights are summed against the values over "
                    f"{table.describe(contracted[0])} ({_what(summed)})",
                    hint=(f"normalize over the key axis: use dim={spell(key_dim)}"
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


def _sink_of(table, normalized: int, contracted: int) -> bool:
    """The normalized axis is the contracted one with columns added (attention sinks, gpt-oss style):
    they take probability mass and are dropped before the values."""
    return any(table.same(piece, contracted) for piece in table.get(normalized).joined)


def _spelling(analysis, block):
    """How to write a dim of the scores the way the user did: dim=1 if they counted from the
    front, dim=-2 if from the back (the default)."""
    rank = len(block.table_axes)
    written = analysis.recording.events[block.dim_event].arg(1, "dim") if block.dim_event is not None else None
    if isinstance(written, (list, tuple)) and len(written) == 1:
        written = written[0]
    if isinstance(written, int) and written >= 0:
        return lambda dim: dim
    return lambda dim: dim - rank


def _what(axis) -> str:
    if axis.role:
        return f"{axis.role} positions"
    return {"batch": "the batch", "head": "heads", "feature": "features", "seq": "positions",
            "pos": "positions", "mixed": "a mixed axis",
            "unknown": "the queries' axis, of size"}.get(axis.kind, axis.kind)
