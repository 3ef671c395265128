"""Statistics of one value: min, max, mean and how many elements are not finite.

The recording keeps them for every output: the TUI shows them and the `nan` check follows
the non-finite counts back to the op that made the first NaN or Inf. A value the recorder
copies gets its statistics from the copy when first asked (`Recording.stats_of`); any other
value gets them at record time, while the tensor still exists.

Importing this module does not import torch: a saved recording reads without it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch

SAMPLE = 65536  # elements read for the mean of a large value
RUN = 1024  # ... in contiguous runs of this many


@dataclass(frozen=True, slots=True)
class ValueStats:
    """Cheap statistics of a floating or boolean value."""

    minimum: float
    maximum: float
    mean: float
    nonfinite: int  # count of NaN and +-Inf elements
    nan: int


def value_stats(tensor: torch.Tensor) -> ValueStats | None:
    """min / max / mean / count of non-finite elements; None where values do not exist.

    One exact pass, min and max together (a NaN or Inf anywhere shows in them, and only
    then are they counted). Above `SAMPLE` elements the mean is read from a sample: it is
    for display, and an exact one would cost more than the op that made the value.
    """
    import torch

    if tensor.is_meta or tensor.numel() == 0 or tensor.is_complex():
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


def permuted_stats(known: ValueStats, tensor: torch.Tensor) -> ValueStats | None:
    """Statistics of `tensor`, a permutation of a value whose statistics are `known`: the same
    elements, so the same min, max and counts; only the sampled mean, read in the new order,
    is computed. None where the mean is over every finite element (its sum depends on order)."""
    import torch

    if known.nonfinite:
        return None
    if tensor.dtype == torch.bool:
        return known
    # Detached: under a training step the value requires grad, and reading a scalar from it
    # makes torch warn in the user's output ("Converting a tensor with requires_grad=True ...").
    mean = float(_sample(tensor.detach().reshape(-1)).double().mean())
    return ValueStats(known.minimum, known.maximum, mean, 0, 0)


def _sample(flat: torch.Tensor) -> torch.Tensor:
    """`SAMPLE` elements in contiguous runs spread evenly over `flat` (single elements at a
    large stride would each miss the cache)."""
    if flat.numel() <= SAMPLE:
        return flat
    runs = flat.numel() // RUN
    return flat[: runs * RUN].view(runs, RUN)[:: max(runs * RUN // SAMPLE, 1)].contiguous()
