"""fully-masked-row: a real query whose every key is hidden has nothing to normalize (NaN or garbage)."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from .base import Check
from .patterns import masks_before, pattern_of


class FullyMaskedRow(Check):
    code = "fully-masked-row"
    severity = "error"

    def run(self, analysis) -> Iterable[Finding]:
        padding = analysis.padding
        for block in analysis.blocks:
            patterns = [(use, pattern_of(analysis, block, use)) for use in masks_before(block)]
            patterns = [(use, p) for use, p in patterns if p is not None]
            if not patterns:
                continue
            hidden = None
            for _, pattern in patterns:
                try:
                    hidden = pattern.hidden if hidden is None else hidden | pattern.hidden
                except RuntimeError:
                    return  # patterns of different layouts: no conclusion
            rows = hidden.all(dim=3)  # (batch, rest, T_q)
            pattern = patterns[-1][1]
            known = padding.get(pattern.query_seq) if pattern.query_seq else None
            pad = known.pad if known is not None else None
            padding_known = pad is not None and pattern.has_batch and rows.shape[0] in (1, pad.shape[0]) \
                and rows.shape[2] in (1, pad.shape[1])
            if padding_known:
                rows = rows & ~pad[:, None, :]
            if bool(rows.any()):
                empty = rows.any(dim=1)  # (batch, T_q)
                queries = sorted({int(q) for q in empty.nonzero()[:, 1]})
                samples = sorted({int(b) for b in empty.nonzero()[:, 0]})
                if not pattern.has_batch:
                    where = ""
                elif empty.shape[0] == 1 or len(samples) == empty.shape[0]:
                    where = " of every sample"
                else:
                    where = f" of sample{'s' if len(samples) > 1 else ''} {_listed(samples)}"
                yield self.at(
                    analysis, patterns[-1][0].event,
                    f"quer{'y' if len(queries) == 1 else 'ies'} at position{'s' if len(queries) > 1 else ''} "
                    f"{_listed(queries)}{where} see{'s' if len(queries) == 1 else ''} no key at all"
                    + (", although not padding" if padding_known else "")
                    + ": the softmax of such a row is NaN (or uniform over hidden keys)",
                    hint="make sure every valid query keeps at least one visible key (e.g. itself)",
                )


def _listed(numbers: list[int], limit: int = 6) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    return shown + (f" and {len(numbers) - limit} more" if len(numbers) > limit else "")
