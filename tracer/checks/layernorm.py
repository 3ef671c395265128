"""Hand-written layer norms: the centring step `x - mean(x)` and the root-mean-square `sqrt(mean(x²))`.

An average is `x.mean(dims)` or `x.sum(dims) / n` with n the number of elements summed; a
variance is the average (or `sum / (n - 1)`, the unbiased mistake) of the centred values
squared (`c ** 2`, `c * c`, `c.square()`). RMSNorm skips the centring: it averages `x²`
and scales x by its inverse root.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

SQUARES = ("pow", "mul", "square")


@dataclass
class Centring:
    mean_event: int
    sub_event: int
    source_vid: int  # x
    centred_vid: int  # x - mean
    dims: tuple[int, ...]


@dataclass
class Average:
    event: int  # the op that finished the average (mean, or the division of a sum)
    dims: tuple[int, ...]
    source_vid: int  # what was averaged
    count: int  # elements averaged over
    divisor: float | None  # what the sum was divided by (None for mean)


def average(analysis, event) -> Average | None:
    """`event` as an average over dims: `mean(x, dims)`, or `sum(x, dims) / k` (any k; see `divisor`)."""
    flow = analysis.flow
    if event is None or not event.inputs:
        return None
    if event.op in ("mean", "var_mean", "std_mean"):  # `var, mean = torch.var_mean(x, -1)`: its mean
        dims = analysis.facts[event.index].normalized
        return Average(event.index, dims, event.inputs[0].vid, _count(event.inputs[0].shape, dims), None)
    if event.op == "div":
        total = flow.made_by(event.inputs[0].vid)
        divisor = flow.scalar(event, 1, "other")
        if total is not None and total.op == "sum" and divisor is not None and total.inputs:
            dims = analysis.facts[total.index].normalized
            return Average(event.index, dims, total.inputs[0].vid, _count(total.inputs[0].shape, dims), divisor)
    return None


def _count(shape: tuple[int, ...], dims: tuple[int, ...]) -> int:
    return math.prod(shape[d] for d in dims if d < len(shape))


def centrings(analysis) -> Iterator[Centring]:
    """Every `x - mean(x, dims)` whose result is then scaled (divided or multiplied), as norms do."""
    flow = analysis.flow
    for event in analysis.recording.ops("sub"):
        if len(event.inputs) != 2 or not event.outputs:
            continue
        mean = average(analysis, _made_through_copies(flow, event.inputs[1].vid))
        if mean is None or mean.source_vid != event.inputs[0].vid or mean.divisor not in (None, mean.count):
            continue
        centred = event.outputs[0].vid
        if not any(user.op in ("div", "mul", "pow", "square") for user, _ in flow.users(centred)):
            continue
        yield Centring(mean.event, event.index, event.inputs[0].vid, centred, mean.dims)


COPIES = frozenset({"detach", "clone", "contiguous"})  # the same numbers: a statistic kept with `.detach()` (RevIN)


def _made_through_copies(flow, vid: int, steps: int = 3):
    """The op that made `vid`'s numbers, looking back through plain copies of them."""
    made = flow.made_by(vid)
    while steps and made is not None and made.op in COPIES and made.inputs:
        made, steps = flow.made_by(made.inputs[0].vid), steps - 1
    return made


def squared(analysis, vid: int) -> Iterator:
    """The ops that square value `vid`: `v ** 2`, `v * v`, `v.square()`."""
    for user, _ in analysis.flow.users(vid):
        if user.op == "pow" and user.arg(1, "exponent") == 2:
            yield user
        elif user.op == "square" or (user.op == "mul" and len(user.inputs) == 2
                                     and user.inputs[0].vid == user.inputs[1].vid == vid):
            yield user


def variances(analysis, centring: Centring) -> Iterator[Average]:
    """Averages of the centred values squared: the hand-written variance of a layer norm."""
    for square in squared(analysis, centring.centred_vid):
        for user, _ in analysis.flow.users(square.outputs[0].vid):
            found = average(analysis, user)
            if found is None and user.op == "sum":
                found = next((average(analysis, div) for div, _ in analysis.flow.users(user.outputs[0].vid)
                              if div.op == "div"), None)
            if found is not None:
                yield found


def rms_norms(analysis) -> Iterator[Average]:
    """`mean(x²)` whose root (rsqrt, sqrt, ** -0.5) scales x: a hand-written RMSNorm's statistic
    (a layer norm's variance, the mean square of *centred* values, is not one)."""
    centred = {centring.centred_vid for centring in centrings(analysis)}
    for event in analysis.recording.events:
        found = average(analysis, event)
        if found is None or found.divisor not in (None, found.count):
            continue
        made = analysis.flow.made_by(found.source_vid)
        if made is None or made.inputs[0].vid in centred or made not in list(squared(analysis, made.inputs[0].vid)):
            continue
        if _rooted(analysis, event.outputs[0].vid):
            yield Average(found.event, found.dims, made.inputs[0].vid, found.count, found.divisor)


def _rooted(analysis, vid: int, depth: int = 3) -> bool:
    for user, _ in analysis.flow.users(vid):
        if user.op in ("rsqrt", "sqrt") or (user.op == "pow" and isinstance(user.arg(1, "exponent"), float)
                                            and user.arg(1, "exponent") < 0):
            return True
        if user.op == "add" and depth and _rooted(analysis, user.outputs[0].vid, depth - 1):
            return True
    return False
