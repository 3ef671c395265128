"""WideTable: notes that wrap to the screen above a table that keeps its full width.

A 32 × 32 attention table is wider than any terminal; squeezed into the screen, Rich would
cut every cell to "…". Here the table gets exactly the width it needs and scrolls
sideways, while the explanations above it wrap to the screen. The tensor views subclass it.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.measure import Measurement
from textual.app import ComposeResult
from textual.containers import HorizontalScroll, Vertical
from textual.widgets import Static


class WideTable(Vertical):
    """`show(notes, table)` draws both; subclasses decide what to show."""

    def compose(self) -> ComposeResult:
        yield Static(classes="wide-notes")
        with HorizontalScroll(classes="wide-scroll"):
            yield Static(classes="wide-grid")

    def show(self, notes: RenderableType, table: RenderableType | None) -> None:
        self.query_one(".wide-notes", Static).update(notes)
        grid = self.query_one(".wide-grid", Static)
        if table is None:
            grid.display = False
            return
        console = self.app.console
        width = Measurement.get(console, console.options.update_width(100_000), table).maximum
        grid.display = True
        grid.styles.width = width
        grid.update(table)
