"""OpTimeline: every recorded op, one row each, the current one under the cursor.

A DataTable draws only the rows on screen, so thousands of ops scroll instantly. The row
texts are built once per session; switching the filter (all ops / attention ops only)
only re-adds the rows. Moving the cursor posts `OpPicked`; the screen decides the step and
binds it back, so the timeline, the tree and the details never drift apart.
"""

from __future__ import annotations

import bisect
from functools import cached_property

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from ..session import Session

# Fixed widths: measuring thousands of cells for auto-sized columns was most of the open time.
COLUMNS = (("#", 6), ("op", 14), ("output axes", 28), ("module", 30), ("line", 4))
SHORT_OPS = {"scaled_dot_product_attention": "sdpa", "multi_head_attention_forward": "mha_forward"}


def short_op(name: str) -> str:
    name = SHORT_OPS.get(name, name)
    return name if len(name) <= 14 else name[:13] + "…"


class OpTimeline(DataTable):
    """The op list; `step` and `attention_only` come from the screen."""

    step: reactive[int] = reactive(0)
    """Index of the current op."""
    attention_only: reactive[bool] = reactive(False)
    """Show only attention-related ops (block members, masks, softmaxes, flagged ops)."""

    class OpPicked(Message):
        """The cursor moved to op `event`."""

        def __init__(self, event: int) -> None:
            self.event = event
            super().__init__()

    def __init__(self, session: Session, **options: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **options)
        self.session = session
        self.shown: list[int] = []
        self._row_of: dict[int, int] = {}
        self._filled: bool | None = None  # the filter the rows were built for

    @cached_property
    def _cells(self) -> list[tuple[Text, Text, Text, Text, Text]]:
        session, rows = self.session, []
        for event in session.events:
            flagged = event.index in session.findings_at
            marker = Text.assemble(("● " if flagged else "  ", "bold red"), str(event.index))
            op = Text(short_op(event.op), style="bold red" if event.error else "bold magenta" if event.index in session.block_of else "")
            axes = session.analysis.describe(event.outputs[0]) if event.outputs else ("raised" if event.error else "")
            rows.append((marker, op, Text(axes, style="cyan"), Text(event.module or "(model)", style="dim"),
                         Text(str(event.line), style="dim")))
        return rows

    def on_mount(self) -> None:
        for label, width in COLUMNS:
            self.add_column(label, width=width)
        self._fill()

    def _fill(self) -> None:
        if self._filled == self.attention_only:
            return
        self._filled = self.attention_only
        self.shown = self.session.attention_events if self.attention_only else list(range(len(self.session.events)))
        self._row_of = {event: row for row, event in enumerate(self.shown)}
        self.clear()
        self.add_rows(self._cells[i] for i in self.shown)
        self._follow()

    def _follow(self) -> None:
        """Put the cursor on the current op, or on the last shown op before it."""
        if not self.shown:
            return
        row = self._row_of.get(self.step)
        if row is None:
            row = max(0, bisect.bisect_left(self.shown, self.step) - 1)
        if row != self.cursor_row:
            self.move_cursor(row=row, animate=False)

    def watch_attention_only(self) -> None:
        if self.is_mounted and self.columns:
            self._fill()

    def watch_step(self) -> None:
        if self.is_mounted and self.columns:
            self._follow()

    def on_resize(self) -> None:
        """A new size (a resized terminal, a breakpoint) must not hide the current row."""
        if self.row_count:
            self.call_after_refresh(self.move_cursor, row=self.cursor_row, animate=False)

    def visible_neighbour(self, step: int, offset: int) -> int | None:
        """The shown op `offset` rows away from `step` (None past either end)."""
        row = self._row_of.get(step)
        if row is None:
            row = bisect.bisect_left(self.shown, step) - (1 if offset > 0 else 0)
        target = row + offset
        return self.shown[target] if 0 <= target < len(self.shown) else None

    def on_data_table_row_highlighted(self, message: DataTable.RowHighlighted) -> None:
        message.stop()
        # Read the cursor now, not the message: programmatic moves queue stale highlights.
        if 0 <= self.cursor_row < len(self.shown) and self.shown[self.cursor_row] != self.step:
            self.post_message(self.OpPicked(self.shown[self.cursor_row]))
