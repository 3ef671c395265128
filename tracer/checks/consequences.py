"""One mistake, one error: a symptom that another finding explains is reported under it, not beside it.

A causal mask that hides the diagonal leaves query 0 with no key at all (fully-masked-row), and
the softmax of that row is NaN (nan): three findings, one mistake. The cause is what the user
fixes; the empty row and the NaN follow from it, so they become its consequences: notes under
it, not counted. A symptom (a code of `SYMPTOMS`) is explained by a finding at least as severe
that stands on, or points its notes at, a line the symptom's defect came from (`came_from`: the
mask an empty row was judged on, the ops a NaN was made and fed by). A symptom nothing explains
stays a finding of its own, so a model whose output is not finite always gets an error.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from ..findings import SEVERITIES, Finding

# Codes that may be the consequence of another mistake, nearest the cause first: a NaN may follow
# from a fully masked row, never the reverse.
SYMPTOMS = ("fully-masked-row", "nan")


def unfolded(findings: Iterable[Finding]) -> list[Finding]:
    """Every finding on its own again, each cause followed by its consequences (for the witnesses,
    which judge each claim by itself, and may change a cause's severity)."""
    flat = []
    for finding in findings:
        flat.append(replace(finding, consequences=()))
        flat.extend(finding.consequences)
    return flat


def folded(findings: Iterable[Finding]) -> list[Finding]:
    """The findings with each explained symptom moved under the finding that explains it (the root
    of a chain: a NaN from an empty row from a hidden diagonal goes under the diagonal), in order."""
    flat = unfolded(findings)
    cause_of = {position: cause for position in range(len(flat))
                if (cause := _explaining(flat, position)) is not None}
    under: dict[int, list[Finding]] = {}
    for position in sorted(cause_of):
        root = cause_of[position]
        while root in cause_of:
            root = cause_of[root]
        under.setdefault(root, []).append(flat[position])
    return [_with_consequences(finding, under.get(position, []))
            for position, finding in enumerate(flat) if position not in cause_of]


def _with_consequences(cause: Finding, consequences: list[Finding]) -> Finding:
    """The cause with its consequences under it; a witness that proved one of them proves the
    cause too (the harm it measured is the mistake's), so the proof goes with the cause."""
    witness = cause.witness or next((found.witness for found in consequences if found.witness is not None), None)
    consequences = [replace(found, witness=None) if found.witness is witness else found for found in consequences]
    return replace(cause, consequences=tuple(consequences), witness=witness)


def _explaining(flat: list[Finding], position: int) -> int | None:
    """The position of the finding that explains the symptom at `position`: a cause before another
    symptom, the more severe first, then the first reported; None for a cause or an unexplained symptom."""
    symptom = flat[position]
    if symptom.code not in SYMPTOMS:
        return None
    rank = SYMPTOMS.index(symptom.code)
    candidates = [
        other for other, finding in enumerate(flat)
        if other != position and (finding.code not in SYMPTOMS or SYMPTOMS.index(finding.code) < rank)
        and SEVERITIES.index(finding.severity) <= SEVERITIES.index(symptom.severity)
        and finding.places & symptom.came_from
    ]
    return min(candidates, key=lambda other: (flat[other].code in SYMPTOMS, SEVERITIES.index(flat[other].severity),
                                              other), default=None)
