"""Which values the recorder copies: the ones later stages read, while their budget lasts.

Copies are what value checks (mask patterns, fully masked rows) and the TUI's heatmaps
read, and what the statistics of small values are computed from when asked. They are
detached CPU clones, so the user's tensors are never kept alive or changed.

Two budgets. Masks (and what builds them) have their own, larger one, and are kept at
their own size: an `expand` of a (T, T) mask keeps the (T, T) source, so the mask checks
still work at T=8192 when the attention tables no longer fit in the main budget. Every
value wanted but not copied is listed in `dropped`, so the report can say which checks
it limited.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

# Ops whose outputs later stages read as values: normalizations, masks and what builds them.
VALUE_OPS = frozenset(
    {
        "softmax", "log_softmax", "masked_fill", "where", "tril", "triu", "scaled_dot_product_attention",
        "eq", "ne", "lt", "le", "gt", "ge", "logical_not", "bitwise_not", "logical_and", "logical_or",
        "exp",
    }
)
# Ops whose outputs are masks whatever their dtype: triangles and comparisons.
MASK_OPS = frozenset(
    {
        "tril", "triu", "eq", "ne", "lt", "le", "gt", "ge", "logical_not", "bitwise_not", "logical_and",
        "logical_or", "logical_xor", "logical_and_bitwise", "logical_or_bitwise", "logical_xor_bitwise",
    }
)
# Views that repeat their input's elements: copied as the input at its own size.
EXPANSIONS = frozenset({"expand", "expand_as", "broadcast_to"})
SMALL_NUMEL = 4096
DEFAULT_BUDGET_BYTES = 64 * 2**20
MASK_BUDGET_BYTES = 1024 * 2**20


@dataclass
class ValueKeeper:
    """Decides which values to copy, and copies them while their budget lasts."""

    budget_bytes: int = DEFAULT_BUDGET_BYTES
    mask_budget_bytes: int = MASK_BUDGET_BYTES
    used_bytes: int = 0
    mask_bytes: int = 0
    kept: dict[int, torch.Tensor] = field(default_factory=dict)
    dropped: list[int] = field(default_factory=list)  # vids wanted but over budget
    everything: bool = False  # keep every value (a witness comparing two runs op by op), under the budget

    def wants(self, op: str, tensor: torch.Tensor, mask: bool) -> bool:
        """Masks, normalizations, small values and non-float values (ids, masks) are read later."""
        return (
            self.everything or mask or op in VALUE_OPS or tensor.numel() <= SMALL_NUMEL
            or not (tensor.is_floating_point() or tensor.is_complex())
        )

    def offer(self, vid: int, op: str, tensor: torch.Tensor, mask: bool) -> bool:
        """Copy `tensor` as value `vid` if it is wanted and fits; True if it was copied.

        `mask`: the value is a mask or builds one (the recorder follows that from bool
        values and `MASK_OPS` through what is computed from them and constants).
        Called for every recorded op, so `wants` and the copy are inline.
        """
        numel = tensor.numel()
        if not (self.everything or mask or op in VALUE_OPS or numel <= SMALL_NUMEL
                or not (tensor.is_floating_point() or tensor.is_complex())) or tensor.is_meta:
            return False
        size = numel * tensor.element_size()
        if mask:
            if self.mask_bytes + size > self.mask_budget_bytes:
                self.dropped.append(vid)
                return False
            self.mask_bytes += size
        else:
            if self.used_bytes + size > self.budget_bytes:
                self.dropped.append(vid)
                return False
            self.used_bytes += size
        # a private CPU copy outside autograd (a clone of a tensor without grad needs no detach)
        if not tensor.is_cpu:
            self.kept[vid] = tensor.detach().to("cpu")
        else:
            self.kept[vid] = tensor.detach().clone() if tensor.requires_grad else tensor.clone()
        return True

    def offer_expanded(self, vid: int, op: str, tensor: torch.Tensor, source_vid: int, mask: bool) -> bool:
        """An expansion of value `source_vid`: kept as a view of the source's copy, so a mask
        broadcast over batch and heads costs its own size only."""
        copy = self.kept.get(source_vid)
        if copy is None or not self.wants(op, tensor, mask):
            return self.offer(vid, op, tensor, mask)
        self.kept[vid] = copy.expand(tensor.shape)
        return True

    @property
    def skipped(self) -> int:
        return len(self.dropped)

