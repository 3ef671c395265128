"""What the recorder remembers about values: statistics for all, copies for a few.

Copies are what value checks (mask patterns, fully masked rows) and the TUI's heatmaps
read. They are detached CPU clones, so the user's tensors are never kept alive or changed,
and their total size stays under a budget.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch

from .events import ValueStats

# Ops whose outputs later stages read as values: normalizations, masks and what builds them.
VALUE_OPS = frozenset(
    {
        "softmax", "log_softmax", "masked_fill", "where", "tril", "triu", "scaled_dot_product_attention",
        "eq", "ne", "lt", "le", "gt", "ge", "logical_not", "bitwise_not", "logical_and", "logical_or",
        "exp",
    }
)
SMALL_NUMEL = 4096
SAMPLE = 65536  # elements read for the mean of a large value
RUN = 1024  # ... in contiguous runs of this many
DEFAULT_BUDGET_BYTES = 64 * 2**20


def value_stats(tensor: torch.Tensor) -> ValueStats | None:
    """min / max / mean / count of non-finite elements; None where values do not exist.

    One exact pass, min and max together (a NaN or Inf anywhere shows in them, and only
    then are they counted). Above `SAMPLE` elements the mean is read from a sample: it is
    for display, and an exact one would cost more than the op that made the value.
    """
    if tensor.device.type == "meta" or tensor.numel() == 0 or tensor.is_complex():
        return None
    data = tensor.detach()
    if data.dtype == torch.bool:
        trues, total = int(data.sum()), data.numel()
        return ValueStats(float(trues == total), float(trues > 0), trues / total, 0, 0)
    flat = data.reshape(-1)
    low, high = (float(v) for v in torch.aminmax(flat))
    if math.isfinite(low) and math.isfinite(high) or not data.is_floating_point():
        return ValueStats(low, high, float(_sample(flat).double().mean()), 0, 0)
    finite = torch.isfinite(flat)
    nonfinite = flat.numel() - int(finite.sum())
    nan = int(torch.isnan(flat).sum())
    if nonfinite == flat.numel():
        return ValueStats(float("nan"), float("nan"), float("nan"), nonfinite, nan)
    picked = flat[finite]
    low, high = (float(v) for v in torch.aminmax(picked))
    return ValueStats(low, high, float(picked.double().mean()), nonfinite, nan)


def _sample(flat: torch.Tensor) -> torch.Tensor:
    """`SAMPLE` elements in contiguous runs spread evenly over `flat` (single elements at a
    large stride would each miss the cache)."""
    if flat.numel() <= SAMPLE:
        return flat
    runs = flat.numel() // RUN
    return flat[: runs * RUN].view(runs, RUN)[:: max(runs * RUN // SAMPLE, 1)].contiguous()


@dataclass
class ValueKeeper:
    """Decides which values to copy, and copies them while the budget lasts."""

    budget_bytes: int = DEFAULT_BUDGET_BYTES
    used_bytes: int = 0
    skipped: int = 0
    kept: dict[int, torch.Tensor] = field(default_factory=dict)

    def wants(self, op: str, tensor: torch.Tensor) -> bool:
        if tensor.device.type == "meta":
            return False
        return (
            op in VALUE_OPS
            or tensor.numel() <= SMALL_NUMEL
            or not (tensor.is_floating_point() or tensor.is_complex())
        )

    def offer(self, vid: int, op: str, tensor: torch.Tensor) -> None:
        if not self.wants(op, tensor):
            return
        size = tensor.numel() * tensor.element_size()
        if self.used_bytes + size > self.budget_bytes:
            self.skipped += 1
            return
        data = tensor.detach()
        self.kept[vid] = data.clone() if data.device.type == "cpu" else data.to("cpu")
        self.used_bytes += size
