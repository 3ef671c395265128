"""Mask patterns in one canonical layout, so the mask checks never care how a model lays out heads.

A mask's hidden-key pattern is brought to `(batch, rest, T_q, T_k)`: merged axes such as
`B·H` are split back into their parts, the batch dim is found by its axis, the query and
key dims by their roles, and everything else (heads) is flattened into `rest`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from ..blocks import AttentionBlock, MaskUse

if TYPE_CHECKING:
    from ..analysis import Analysis


@dataclass
class Pattern:
    hidden: torch.Tensor  # bool (batch, rest, T_q, T_k), True where hidden; broadcast dims may be 1
    has_batch: bool
    query_seq: str | None
    key_seq: str | None
    same_sequence: bool

    def varies_along(self, dim: int) -> bool:
        """True when the pattern is not constant along `dim` (0 batch, 1 rest, 2 query, 3 key)."""
        if self.hidden.shape[dim] == 1:
            return False
        first = self.hidden.narrow(dim, 0, 1)
        return bool((self.hidden != first).any())


def _split_merged(analysis: "Analysis", hidden: torch.Tensor, axes: tuple[int, ...]) -> tuple[torch.Tensor, list[int]]:
    table = analysis.table
    sizes, flat = [], []
    for dim, axis in enumerate(axes):
        record = table.get(axis)
        if record.parts and record.kind == "batch":
            for part in record.parts:
                sizes.append(table.get(part).size if hidden.shape[dim] != 1 else 1)
                flat.append(part)
        else:
            sizes.append(hidden.shape[dim])
            flat.append(axis)
    return hidden.reshape(sizes), flat


def pattern_of(analysis: "Analysis", block: AttentionBlock, use: MaskUse) -> Pattern | None:
    """The hidden-key pattern of one mask use, or None where it cannot be placed on the table."""
    if use.hidden is None or len(use.axes) != use.hidden.dim():
        return None
    table = analysis.table
    hidden, axes = _split_merged(analysis, use.hidden, use.axes)
    key_axes = block.contracted_axes or ((block.normalized_axis,) if block.normalized_axis is not None else ())
    key_dim = next((d for d, a in enumerate(axes) for k in key_axes if table.same(a, k)), None)
    if key_dim is None:
        key_dim = next((d for d, a in enumerate(axes) if table.get(a).role == "key"), None)
    if key_dim is None:
        return None
    query_dim = next((d for d, a in enumerate(axes) if d != key_dim and table.get(a).role == "query"), None)
    if query_dim is None:
        candidates = [d for d, a in enumerate(axes) if d != key_dim and table.get(a).kind in ("seq", "pos")]
        if len(candidates) != 1:
            return None
        query_dim = candidates[0]
    others = [d for d in range(len(axes)) if d not in (key_dim, query_dim)]
    batch_dims = [d for d in others if table.get(axes[d]).kind == "batch" and not table.get(axes[d]).parts]
    if not batch_dims:  # a batch axis we could not name (e.g. of ids the model built itself)
        batch_dims = [d for d in others if table.get(axes[d]).kind == "unknown"][:1]
    batch_dim = batch_dims[0] if len(batch_dims) == 1 else None
    rest = [d for d in range(len(axes)) if d not in (key_dim, query_dim, batch_dim)]
    order = ([batch_dim] if batch_dim is not None else []) + rest + [query_dim, key_dim]
    permuted = hidden.permute(order)
    batch = hidden.shape[batch_dim] if batch_dim is not None else 1
    rest = math.prod(hidden.shape[d] for d in rest)
    canonical = permuted.reshape(batch, rest, hidden.shape[query_dim], hidden.shape[key_dim])
    query, key = table.get(axes[query_dim]), table.get(axes[key_dim])
    return Pattern(canonical, batch_dim is not None, query.seq, key.seq,
                   table.base_of(axes[query_dim]) == table.base_of(axes[key_dim]))


def masks_before(block: AttentionBlock) -> list[MaskUse]:
    """Masks applied to the scores, less SDPA's is_causal: torch's own pattern, right by construction."""
    return [use for use in block.masks if not use.after and use.kind != "is_causal"]
