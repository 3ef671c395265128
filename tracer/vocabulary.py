"""The documented role vocabulary: what an axis *is*, in words scripts can rely on.

CONTRACT.md promises the graph's value edges an `axes` list of `(name, role)` pairs, with
roles from one fixed vocabulary. This module is the one place that maps the analysis's
internal axis records onto that vocabulary, so the graph, exports, renderer and TUI all
say the same thing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .axes import Axis, AxisTable

ROLES = (
    "batch",  # samples of the batch: nothing ever mixes across them
    "heads",  # attention heads
    "query",  # query positions of a score table
    "key",  # key positions of a score table
    "sequence",  # token, patch, frame or table positions
    "features",  # a feature space (model width, a projection's output)
    "head features",  # the per-head slice of a feature space (d_h)
    "vocabulary",  # one entry per token id (logits, embedding rows)
    "merged",  # several axes flattened into one that keeps them apart (B·H)
    "mixed",  # a reshape tore two axes into each other
    "singleton",  # a size-1 dim (keepdim, unsqueeze, broadcast)
    "unknown",  # no evidence either way
)


def role_of(record: "Axis") -> str:
    """The vocabulary role of one axis record (the union-find root's)."""
    kind = record.kind
    if kind in ("seq", "pos"):
        return record.role if record.role in ("query", "key") else "sequence"
    if kind == "feature":
        return "head features" if record.base is not None else "features"
    return {
        "batch": "batch", "head": "heads", "vocab": "vocabulary", "merged": "merged",
        "mixed": "mixed", "one": "singleton",
    }.get(kind, "unknown")


def named_axes(table: "AxisTable", axes: tuple[int, ...]) -> list[tuple[str, str]]:
    """`[(name, role), ...]` for a value's axes, e.g. `[("B", "batch"), ("Tq", "query"), ...]`."""
    pairs = []
    for axis in axes:
        record = table.get(axis)
        pairs.append((record.display, role_of(record)))
    return pairs
