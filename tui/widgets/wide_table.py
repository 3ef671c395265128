"""WideTable: notes that wrap to the screen above a grid that keeps its full width.

A 32 × 32 attention table is wider than any terminal; squeezed into the screen, every cell
would be cut to "…". Here the grid keeps the width it needs and scrolls sideways (`GridView`,
the `.wide-scroll` the tensor screen pans), while the explanations above it wrap to the
screen. The grid is drawn into strips once and Textual paints only the rows in view, so a
96 × 96 heatmap costs milliseconds, not seconds. The tensor views subclass WideTable.
"""

from __future__ import annotations

from typing import Protocol

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from ..grid import Grid


class Lines(Protocol):
    """What a GridView draws: `line_count` lines of `width` cells, made on demand by `line(index)`."""

    width: int

    @property
    def line_count(self) -> int: ...

    def line(self, index: int) -> list[Segment]: ...


class RenderedLines:
    """Any Rich renderable, rendered once at its natural width, as `Lines`."""

    def __init__(self, console: Console, renderable: RenderableType) -> None:
        self.width = Measurement.get(console, console.options.update_width(100_000), renderable).maximum
        self._lines = console.render_lines(renderable, console.options.update_width(self.width), pad=True)
        self.line_count = len(self._lines)

    def line(self, index: int) -> list[Segment]:
        return self._lines[index]


class GridView(ScrollView):
    """Lines of a grid, made into strips as they come into view; as tall as the grid, scrolling
    sideways when it is wider than the view."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.source: Lines | None = None
        self._strips: dict[int, Strip] = {}

    def set_lines(self, source: Lines) -> None:
        """New content; the screen is laid out again only when the grid's size changed."""
        size = Size(source.width, source.line_count)
        resized = self.virtual_size != size
        self.source, self._strips = source, {}
        self.virtual_size = size
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh(layout=resized)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.source.line_count if self.source is not None else 0

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if self.source is None or index >= self.source.line_count:
            return Strip.blank(width, self.rich_style)
        strip = self._strips.get(index)
        if strip is None:
            strip = self._strips[index] = Strip(self.source.line(index), self.source.width)
        left = int(self.scroll_offset.x)
        return strip.crop_extend(left, left + width, self.rich_style)

    def text(self) -> str:
        """The whole grid's text, for tests and for reading it back."""
        if self.source is None:
            return ""
        lines = (self.source.line(index) for index in range(self.source.line_count))
        return "\n".join("".join(segment.text for segment in line).rstrip() for line in lines)


def _line_lengths(notes: RenderableType) -> tuple[int, ...] | None:
    """The cell length of each text in `notes` (a Text or a Group of Texts); None for anything else."""
    parts = notes.renderables if isinstance(notes, Group) else [notes]
    if not all(isinstance(part, Text) for part in parts):
        return None
    return tuple(part.cell_len for part in parts)


class WideTable(Vertical):
    """`show(notes, table)` draws both; subclasses decide what to show."""

    def compose(self) -> ComposeResult:
        yield Static(classes="wide-notes")
        yield GridView(classes="wide-scroll")

    _notes_shape: tuple[int, ...] | None = None

    def show(self, notes: RenderableType, table: RenderableType | None) -> None:
        """Draw `notes` and `table`. Notes of the same line lengths as before (another batch item
        or head) wrap the same way, so the screen is not laid out again for them."""
        shape = _line_lengths(notes)
        same = shape is not None and shape == self._notes_shape
        self._notes_shape = shape
        self.query_one(".wide-notes", Static).update(notes, layout=not same)
        view = self.query_one(GridView)
        if table is None:
            view.display = False
            return
        view.display = True
        view.set_lines(table if isinstance(table, Grid) else RenderedLines(self.app.console, table))
