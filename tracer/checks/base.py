"""What every check shares: its identity (code, severity) and how it words a finding."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterable

from ..findings import Finding, Related

if TYPE_CHECKING:
    from ..analysis import Analysis


class Check:
    """A pure function from an analysis to findings, under one stable code of CONTRACT.md."""

    code: ClassVar[str]
    severity: ClassVar[str]

    def run(self, analysis: "Analysis") -> Iterable[Finding]:
        raise NotImplementedError

    def at(self, analysis: "Analysis", event: int, message: str, hint: str = "",
           related: tuple[Related, ...] = (), came_from: Iterable[tuple[str, int]] = ()) -> Finding:
        """A finding located at the user's source line of recorded event `event`; `related` are the
        places that built its faulty operand (notes under the finding); `came_from`, for a symptom,
        the lines its defect came from besides its own (see `checks.consequences`)."""
        recorded = analysis.recording.events[event]
        here = (recorded.file, recorded.line)
        return Finding(
            code=self.code, severity=self.severity, message=message, file=recorded.file,
            line=recorded.line, module=recorded.module, op=recorded.op,
            node=analysis.node_ids[event], hint=hint, event=event,
            related=tuple(place for place in related if (place.file, place.line) != here),
            came_from=frozenset({here, *came_from}),
        )
