"""Heatmap: one attention table T_q × T_k for a chosen batch item and head, with row sums.

Masked cells carry their own glyph and colour (grid.MASKED_GLYPH), so "hidden" is never
confused with "small"; each row's sum is printed, which is how a softmax over the wrong
axis shows itself (rows that do not sum to 1).
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text
from textual.reactive import reactive

from tracer.blocks import AttentionBlock

from ..explain import mask_kind
from ..grid import legend, matrix_table
from ..session import Session
from ..tensors import Table2D, attention_table
from .wide_table import WideTable


class Heatmap(WideTable):
    """The weights of `block` at (`batch`, `head`); the screen changes both."""

    batch: reactive[int] = reactive(0)
    """Index along the table's first leading dim (usually the batch)."""
    head: reactive[int] = reactive(0)
    """Index along the second leading dim (usually the heads)."""

    def __init__(self, session: Session, block: AttentionBlock, **options: object) -> None:
        super().__init__(**options)
        self.session, self.block = session, block
        self.table: Table2D | None = None

    def on_mount(self) -> None:
        self._redraw(mounted=True)

    def watch_batch(self) -> None:
        self._redraw()

    def watch_head(self) -> None:
        self._redraw()

    def _redraw(self, mounted: bool = False) -> None:
        if mounted or self.is_mounted:
            self.table = attention_table(self.session, self.block, self.batch, self.head)
            self.show(*self.draw(self.table))

    def draw(self, data: Table2D) -> tuple[RenderableType, RenderableType | None]:
        block = self.block
        header = Text.assemble((f"attention block #{block.index} ", "bold magenta"), f"({block.kind}) in ",
                               (block.module or "(model)", "bold"), f"   {' · '.join(data.picks)}")
        table = self.session.analysis.table
        normalized = table.describe(block.normalized_axis) if block.normalized_axis is not None else "?"
        masks = "; ".join(f"{use.kind}{'' if use.fill is None else f' {use.fill:g}'} "
                          f"{'after' if use.after else 'before'} the softmax: {mask_kind(self.session, block, use)}"
                          for use in block.masks) or "none"
        parts: list[RenderableType] = [header, Text(f"rows: queries · softmax over {normalized} · masks: {masks}", style="dim")]
        parts += [Text(note, style="italic yellow") for note in data.notes]
        if data.values is None:
            if data.hidden is None:
                return Group(*parts), None
            parts.append(Text("mask pattern only (■ hidden, · visible):", style="bold"))
            return Group(*parts), Text("\n".join("".join("■" if h else "·" for h in row) for row in data.hidden.tolist()))
        rows, cols = data.values.shape
        sums = data.row_sums.tolist() if data.row_sums is not None else data.values.sum(-1).tolist()
        marks = [Text(f"{s:.3f}", style="bold" if abs(s - 1) < 1e-3 else "bold red") for s in sums[:rows]]
        parts.append(legend())
        return Group(*parts), matrix_table(
            data.values, rows=[f"q{i}" for i in range(rows)], cols=[f"k{j}" for j in range(cols)],
            corner=f"{data.row_label}\\{data.col_label}", hidden=data.hidden, heat=True, extra={"Σ row": marks},
        )
