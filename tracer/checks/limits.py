"""What the checks could not judge, said aloud: a skipped check is never a silent "no findings".

The value checks read recorded values: a mask's pattern, the outputs' non-finite counts,
the scores' range. Statistics are taken of every value at record time, and masks are kept
under their own budget at any length, so these checks run on long inputs too; where a
value they need was still not kept (the budget ran out, or the meta device has none), the
report names the checks that did not run and where, and the summary counts them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..evidence.masks import masks_before

MASK_CHECKS = ("mask-axis", "mask-polarity", "causal-leak", "causal-diagonal", "fully-masked-row")
RAISE = "value budget; raise it with --value-budget"


@dataclass(frozen=True)
class Limitation:
    """Checks that did not run on one place, and the note that tells the user why."""

    checks: tuple[str, ...]
    note: str


ON_META = "on the meta device no values exist"  # how the one note on the meta device begins


def limitations(analysis) -> list[Limitation]:
    """One per place a value check could not judge, or one for the meta device."""
    recording = analysis.recording
    if recording.device == "meta":
        return [Limitation(MASK_CHECKS + ("nan", "mask-value"),
                           f"{ON_META}: {_listed(MASK_CHECKS)}, nan and the strength of "
                           "mask fills (mask-value) were not checked; the axis checks ran")]
    found: list[Limitation] = []
    for block in analysis.blocks:
        for use in masks_before(block):
            if use.hidden is None and use.mask is not None:
                found.append(Limitation(MASK_CHECKS, f"the mask applied at {_where(recording, use.event)} was not "
                                                     f"kept ({RAISE}): {_listed(MASK_CHECKS)} could not judge it"))
        for index in block.unread:
            checks = ("mask-after-softmax",) if index > block.norm_event else ("mask-value",) + MASK_CHECKS
            found.append(Limitation(checks, f"the operand combined with the {'weights' if index > block.norm_event else 'scores'} "
                                            f"at {_where(recording, index)} was not kept ({RAISE}): whether it is a "
                                            f"mask is unknown, so {_listed(checks)} could not judge it"))
    floating = [meta for meta in recording.outputs if not meta.dtype.startswith(("int", "bool"))]
    if floating and all(recording.stats_of(meta.vid) is None for meta in floating):
        found.append(Limitation(("nan",), "the model's outputs left no statistics: nan could not check them"))
    return list(dict.fromkeys(found))


def checks_not_run(found: list[Limitation]) -> dict[str, int]:
    """Each check that did not run somewhere, with the number of places: the summary's count."""
    return dict(sorted(Counter(code for limitation in found for code in limitation.checks).items()))


def _where(recording, index: int) -> str:
    event = recording.events[index]
    return f"{event.file}:{event.line}"


def _listed(checks: tuple[str, ...]) -> str:
    return ", ".join(checks)
