"""OpTimeline: every recorded op, one row each, the current one under the cursor.

A DataTable draws only the rows on screen, so thousands of ops scroll instantly. The
columns fit the width instead of scrolling sideways: `#` with the finding marker, op and
output axes always show; module and line join when there is room (they are in the details
pane either way), and the axes and module cells shorten to what fits. Row texts are built
once per width; switching the filter (all ops / attention ops only) only re-adds rows.
Moving the cursor posts `OpPicked`; the screen decides the step and binds it back, so the
timeline, the tree and the details never drift apart.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from tracer.commands.stats import elide_middle

from ..session import Session

SHORT_OPS = {"scaled_dot_product_attention": "sdpa", "multi_head_attention_forward": "mha_forward"}
OP_WIDTH = 14
AXES_MIN, MODULE_MIN, LINE_WIDTH = 20, 16, 5
PADDING = 1  # the DataTable's cell padding, on each side of every column


def short_op(name: str) -> str:
    name = SHORT_OPS.get(name, name)
    return name if len(name) <= OP_WIDTH else name[:OP_WIDTH - 1] + "…"


@dataclass(frozen=True)
class Columns:
    """Which columns show at one width, and how wide each is (0: left out)."""

    number: int
    op: int
    axes: int
    module: int = 0
    line: int = 0

    def shown(self) -> list[tuple[str, int]]:
        named = (("#", self.number), ("op", self.op), ("output axes", self.axes), ("module", self.module),
                 ("line", self.line))
        return [(label, width) for label, width in named if width]


def fit_columns(width: int, number: int, op: int, axes_wanted: int, module_wanted: int) -> Columns:
    """The columns for a table `width` cells wide, by priority: `#`, op, output axes, then module and line.

    The axes come first: they widen to their longest cell before the module gets more than
    its minimum (a module path shortens from its middle); a cell wider than its column ends in "…".
    """
    fixed = number + op + 6 * PADDING
    if width < fixed + AXES_MIN + MODULE_MIN + LINE_WIDTH + 4 * PADDING:  # no room for module and line
        return Columns(number, op, max(width - fixed, 8))
    room = width - fixed - LINE_WIDTH - 4 * PADDING  # for the axes and the module together
    axes = min(axes_wanted, room - MODULE_MIN)
    module = min(module_wanted, room - axes)
    return Columns(number, op, axes, module, LINE_WIDTH)


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
        super().__init__(cursor_type="row", zebra_stripes=False, cell_padding=PADDING, **options)
        self.session = session
        self.shown: list[int] = []
        self._row_of: dict[int, int] = {}
        self._filled: tuple[bool, Columns] | None = None  # the filter and columns the rows were built for
        self.columns_fit: Columns | None = None

    @cached_property
    def _base_cells(self) -> list[tuple[Text, Text, str, str, Text]]:
        """Per op: marker and number, op, output axes, module path, line; built once."""
        session, rows = self.session, []
        describe = session.analysis.describe
        for event in session.events:
            flagged = event.index in session.findings_at
            marker = Text.assemble(("● " if flagged else "  ", "bold red"), str(event.index))
            style = "bold red" if event.error else "bold magenta" if event.index in session.block_of else ""
            axes = describe(event.outputs[0]) if event.outputs else ("raised" if event.error else "")
            rows.append((marker, Text(short_op(event.op), style=style), axes, event.module or "(model)",
                         Text(str(event.line), style="dim")))
        return rows

    @cached_property
    def _wanted(self) -> tuple[int, int, int, int]:
        """Widths that show every cell whole: number, op, axes, module (capped: longer ones shorten)."""
        cells = self._base_cells
        number = len(str(max(len(cells) - 1, 0))) + 2
        op = max((len(row[1]) for row in cells), default=2)
        axes = max((len(row[2]) for row in cells), default=0)
        module = max((len(row[3]) for row in cells), default=0)
        return number, max(op, 2), max(min(axes, 48), 11), max(min(module, 40), 6)

    def _row(self, index: int, fit: Columns) -> tuple[Text, ...]:
        marker, op, axes, module, line = self._base_cells[index]
        cells = [marker, op, Text(axes, style="cyan", no_wrap=True, overflow="ellipsis")]
        if fit.module:
            cells.append(Text(elide_middle(module, fit.module), style="dim", no_wrap=True))
        if fit.line:
            cells.append(line)
        return tuple(cells)

    def _fit(self) -> Columns:
        width = self.scrollable_content_region.width or self.size.width
        return fit_columns(max(width, 1), *self._wanted)

    def on_mount(self) -> None:
        if self.size.width:  # else the first Resize fills it, once, at the real width
            self._fill()

    def _fill(self) -> None:
        """(Re)build columns and rows when the filter or the fitting columns changed."""
        fit = self._fit()
        if self._filled == (self.attention_only, fit):
            return
        columns_changed = self._filled is None or self._filled[1] != fit
        self._filled = (self.attention_only, fit)
        self.columns_fit = fit
        self.shown = self.session.attention_events if self.attention_only else list(range(len(self.session.events)))
        self._row_of = {event: row for row, event in enumerate(self.shown)}
        self.clear(columns=columns_changed)
        if columns_changed:
            for label, width in fit.shown():
                self.add_column(label, width=width)
        self.add_rows(self._row(i, fit) for i in self.shown)
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
        if self.is_mounted and self._filled is not None:
            self._fill()

    def watch_step(self) -> None:
        if self.is_mounted and self.columns:
            self._follow()

    def on_resize(self, event: events.Resize) -> None:
        """A new width may fit other columns; a new size must not hide the current row."""
        if self._filled is None or self._fit() != self._filled[1]:
            self._fill()
        if self.row_count:  # the row under the cursor when the refresh is done, not now
            self.call_after_refresh(lambda: self.move_cursor(row=self.cursor_row, animate=False))

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
