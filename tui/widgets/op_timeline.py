"""OpTimeline: every recorded op, one row each, the current one under the cursor.

A line widget (Textual's line API) over pre-drawn rows: each row is drawn into a strip once
per width and kept, so stepping, jumping and switching panes repaint from cache, and the
filter (all ops / attention ops only) swaps a list of indexes instead of rebuilding a
table. The columns fit the width instead of scrolling sideways: `#` with the finding
marker (`○` where only a consequence of a mistake sits), op and output axes always show;
module and line join when there is room (they are in the details pane either way), and the
axes and module cells shorten to what fits.
Moving the cursor posts `OpPicked`; the screen decides the step and binds it back, so the
timeline, the tree and the details never drift apart.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cached_property

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tracer.commands.stats import elide_middle

from ..session import Session

SHORT_OPS = {"scaled_dot_product_attention": "sdpa", "multi_head_attention_forward": "mha_forward"}
OP_WIDTH = 14
AXES_MIN, MODULE_MIN, LINE_WIDTH = 20, 16, 5
PADDING = 1  # blank cells on each side of every column


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


def _cell(text: str, width: int, style: Style | str = "", right: bool = False) -> Text:
    """One padded cell: cut to `width` with "…", aligned, a blank on each side."""
    if len(text) > width:
        text = text[:max(width - 1, 0)] + "…"
    aligned = text.rjust(width) if right else text.ljust(width)
    return Text(" " * PADDING + aligned + " " * PADDING, style=style)


class OpTimeline(ScrollView, can_focus=True):
    """The op list; `step` and `attention_only` come from the screen."""

    BINDINGS = [
        Binding("up", "cursor(-1)", "up", show=False),
        Binding("down", "cursor(1)", "down", show=False),
        Binding("pageup", "page(-1)", "page up", show=False),
        Binding("pagedown", "page(1)", "page down", show=False),
        Binding("home,ctrl+home", "to_end(0)", "first", show=False),
        Binding("end,ctrl+end", "to_end(1)", "last", show=False),
    ]
    COMPONENT_CLASSES = {"op-timeline--header", "op-timeline--cursor"}
    DEFAULT_CSS = """
    OpTimeline {
        background: $surface;
        & > .op-timeline--header { text-style: bold; background: $panel; color: $foreground; }
        & > .op-timeline--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .op-timeline--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
    }
    """

    step: reactive[int] = reactive(0, repaint=False)
    """Index of the current op."""
    attention_only: reactive[bool] = reactive(False, repaint=False)
    """Show only attention-related ops (block members, masks, softmaxes, flagged ops)."""
    cursor_row: reactive[int] = reactive(0, repaint=False)
    """The highlighted row (an index into `shown`)."""

    class OpPicked(Message):
        """The cursor moved to op `event`."""

        def __init__(self, event: int) -> None:
            self.event = event
            super().__init__()

    def __init__(self, session: Session, **options: object) -> None:
        super().__init__(**options)
        self.session = session
        self.shown: list[int] = list(range(len(session.events)))
        self._row_of: dict[int, int] = {event: row for row, event in enumerate(self.shown)}
        self.columns_fit: Columns | None = None
        self._strips: dict[tuple[int, str], Strip] = {}  # (op index or -1 for the header, state) -> strip

    # ------------------------------------------------------------ rows
    @cached_property
    def _base_cells(self) -> list[tuple[str, str, Style | str, str, str, str]]:
        """Per op: marker (`●` flagged, `○` a consequence of a mistake elsewhere), op, op style,
        output axes, module path, line; built once."""
        session, rows = self.session, []
        describe = session.analysis.describe
        for event in session.events:
            style = "bold red" if event.error else "bold magenta" if event.index in session.block_of else ""
            axes = describe(event.outputs[0]) if event.outputs else ("raised" if event.error else "")
            marker = ("● " if event.index in session.findings_at
                      else "○ " if event.index in session.consequences_at else "  ")
            rows.append((marker, short_op(event.op), style, axes,
                         event.module or "(model)", str(event.line)))
        return rows

    @cached_property
    def _wanted(self) -> tuple[int, int, int, int]:
        """Widths that show every cell whole: number, op, axes, module (capped: longer ones shorten)."""
        cells = self._base_cells
        number = len(str(max(len(cells) - 1, 0))) + 2
        op = max((len(row[1]) for row in cells), default=2)
        axes = max((len(row[3]) for row in cells), default=0)
        module = max((len(row[4]) for row in cells), default=0)
        return number, max(op, 2), max(min(axes, 48), 11), max(min(module, 40), 6)

    @property
    def row_count(self) -> int:
        return len(self.shown)

    def _row_text(self, index: int, fit: Columns) -> Text:
        flag, op, op_style, axes, module, line = self._base_cells[index]
        marker = Text(" " * PADDING) + Text(flag, style="bold red") + Text(
            str(index).ljust(fit.number - 2) + " " * PADDING)
        parts = [marker, _cell(op, fit.op, op_style), _cell(axes, fit.axes, "cyan")]
        if fit.module:
            parts.append(_cell(elide_middle(module, fit.module), fit.module, "dim"))
        if fit.line:
            parts.append(_cell(line, fit.line, "dim"))
        return Text("").join(parts)

    def _header_text(self, fit: Columns) -> Text:
        return Text("").join(_cell(label, width) for label, width in fit.shown())

    def _strip(self, row: int | None, width: int) -> Strip:
        """The header (row None) or a row, drawn once per width and cursor/focus state, then kept."""
        fit = self.columns_fit or fit_columns(width, *self._wanted)
        if row is None:
            key, component = (-1, f"header {width}"), "op-timeline--header"
        else:
            index = self.shown[row]
            cursor = row == self.cursor_row
            key = (index, f"{width} {cursor} {cursor and self.has_focus}")
            component = "op-timeline--cursor" if cursor else None
        strip = self._strips.get(key)
        if strip is None:
            text = self._header_text(fit) if row is None else self._row_text(self.shown[row], fit)
            base = self.rich_style + (self.get_component_rich_style(component) if component else Style())
            console = self.app.console
            options = console.options.update(width=width, height=1, no_wrap=True, overflow="crop")
            segments = console.render_lines(text, options, style=base, pad=True)[0]
            strip = self._strips[key] = Strip(segments, width)
        return strip

    # ------------------------------------------------------------ drawing
    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:
            return self._strip(None, width)
        row = int(self.scroll_offset.y) + y - 1
        if row >= len(self.shown):
            return Strip.blank(width, self.rich_style)
        return self._strip(row, width)

    def _fit(self) -> None:
        """Columns for the current width; a new fit drops every drawn strip."""
        width = self.scrollable_content_region.width or self.size.width
        fit = fit_columns(max(width, 1), *self._wanted)
        if fit != self.columns_fit:
            self.columns_fit = fit
            self._strips.clear()
        self.virtual_size = Size(width, len(self.shown) + 1)

    def on_resize(self, event: events.Resize) -> None:
        self._fit()
        self._scroll_to_cursor()

    def on_focus(self) -> None:
        self.refresh_lines(self.cursor_row + 1)  # virtual lines: the header is line 0

    def on_blur(self) -> None:
        self.refresh_lines(self.cursor_row + 1)

    # ------------------------------------------------------------ state from the screen
    def watch_attention_only(self) -> None:
        self.shown = self.session.attention_events if self.attention_only else list(range(len(self.session.events)))
        self._row_of = {event: row for row, event in enumerate(self.shown)}
        self._fit()
        self._follow()
        self.refresh()

    def watch_step(self) -> None:
        self._follow()

    def _follow(self) -> None:
        """Put the cursor on the current op, or on the last shown op before it."""
        if not self.shown:
            return
        row = self._row_of.get(self.step)
        if row is None:
            row = max(0, bisect.bisect_left(self.shown, self.step) - 1)
        self.set_reactive(OpTimeline.cursor_row, row)
        self._cursor_moved()
        if self.shown[row] != self.step:  # the op is filtered out: the nearest shown one becomes current
            self.post_message(self.OpPicked(self.shown[row]))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self._cursor_moved(old)
        if 0 <= new < len(self.shown) and self.shown[new] != self.step:
            self.post_message(self.OpPicked(self.shown[new]))

    _drawn_cursor = 0

    def _cursor_moved(self, old: int | None = None) -> None:
        """Repaint the rows the cursor left and reached, and keep it in view."""
        for row in {self._drawn_cursor, self.cursor_row} if old is None else {old, self._drawn_cursor, self.cursor_row}:
            self.refresh_lines(row + 1)
        self._drawn_cursor = self.cursor_row
        self._scroll_to_cursor()

    def _scroll_to_cursor(self) -> None:
        # The header occupies line 0, so row r is at virtual line r + 1; keep one line of it visible.
        self.scroll_to_region(Region(0, self.cursor_row, 1, 2), animate=False, immediate=True, force=True)

    # ------------------------------------------------------------ keys and mouse
    def _move_to(self, row: int) -> None:
        if self.shown:
            self.cursor_row = max(0, min(row, len(self.shown) - 1))

    def action_cursor(self, offset: int) -> None:
        self._move_to(self.cursor_row + offset)

    def action_page(self, direction: int) -> None:
        self._move_to(self.cursor_row + direction * max(self.scrollable_content_region.height - 2, 1))

    def action_to_end(self, last: int) -> None:
        self._move_to(len(self.shown) - 1 if last else 0)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.y > 0:
            self._move_to(int(self.scroll_offset.y) + offset.y - 1)

    def visible_neighbour(self, step: int, offset: int) -> int | None:
        """The shown op `offset` rows away from `step` (None past either end)."""
        row = self._row_of.get(step)
        if row is None:
            row = bisect.bisect_left(self.shown, step) - (1 if offset > 0 else 0)
        target = row + offset
        return self.shown[target] if 0 <= target < len(self.shown) else None
