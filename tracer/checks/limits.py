"""What the checks could not judge, said aloud: a skipped check is never a silent "no findings".

The value checks read recorded values: a mask's pattern, the outputs' non-finite counts,
the scores' range. Where those values were not kept (the value budget ran out, or the
meta device has none), the report names the checks that were limited and where.
"""

from __future__ import annotations

from ..findings import Finding
from .patterns import masks_before

MASK_CHECKS = "mask-axis, mask-polarity, causal-leak, causal-diagonal, fully-masked-row"


def limitation_notes(analysis, findings: list[Finding]) -> list[str]:
    """One note per limited judgement: the checks it concerns and the user line, or one for the meta device."""
    recording = analysis.recording
    if recording.device == "meta":
        return [f"on the meta device no values exist: {MASK_CHECKS}, nan and the strength of mask fills "
                "(mask-value) were not checked; the axis checks ran"]
    notes = []
    for block in analysis.blocks:
        for use in masks_before(block):
            if use.hidden is None and use.mask is not None:
                event = recording.events[use.event]
                notes.append(f"the mask applied at {event.file}:{event.line} was not kept (value budget; raise it "
                             f"with --value-budget): {MASK_CHECKS} could not judge it")
    if recording.outputs and all(recording.stats_of(meta.vid) is None for meta in recording.outputs
                                 if not meta.dtype.startswith(("int", "bool"))):
        floating = [meta for meta in recording.outputs if not meta.dtype.startswith(("int", "bool"))]
        if floating:
            notes.append("the model's outputs left no statistics: nan could not check them")
    return list(dict.fromkeys(notes))
