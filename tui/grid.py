"""Matrices drawn as grids: labelled rows and columns, optional heat colours and masked cells.

The heatmap, the LayerNorm table, the value view and the demo all draw small matrices; one
function keeps their look (and the meaning of a colour) the same everywhere. A masked cell
must never be mistaken for a small weight, so it gets its own glyph and colour, and a
masked cell that still carries weight (a leak) is drawn loudest of all.
"""

from __future__ import annotations

import math
from typing import Sequence

import torch
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

MASKED_GLYPH = "░░░░"
MASKED_STYLE = Style(color="rgb(200,60,60)", bgcolor="rgb(45,10,10)")
LEAK_STYLE = Style(color="white", bgcolor="rgb(200,0,0)", bold=True)
LOW, HIGH = (18, 28, 58), (250, 205, 60)


def heat_style(value: float) -> Style:
    """Dark blue for 0, bright yellow for 1: the weight's size at a glance."""
    if value != value:  # NaN
        return NAN_STYLE
    return _SHADES[round(min(max(value, 0.0), 1.0) * 1000)]


def _shade(share: float) -> Style:
    share = share ** 0.6
    red, green, blue = (round(low + (high - low) * share) for low, high in zip(LOW, HIGH))
    return Style(color="black" if share > 0.55 else "rgb(220,220,220)", bgcolor=f"rgb({red},{green},{blue})")


NAN_STYLE = Style(color="white", bgcolor="magenta", bold=True)
_SHADES = [_shade(step / 1000) for step in range(1001)]  # one style per shade, shared by every cell of it


def number(value: float, digits: int = 2) -> str:
    if value != value:
        return "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:.3g}" if digits == 0 else f"{value:.{digits}f}"


def legend() -> Text:
    return Text.assemble(
        (" 0.00 ", heat_style(0.0)), " small weight  ", (" 1.00 ", heat_style(1.0)), " large  ",
        (MASKED_GLYPH, MASKED_STYLE), " masked key (weight 0)  ", (" 0.12 ", LEAK_STYLE), " masked but weighted",
    )


Cell = tuple[str, Style | None]  # one cell: its text (one line) and style
BOLD, PLAIN, RULE_STYLE = Style(bold=True), None, Style(dim=True)


class _Spaces(dict):
    """Unstyled runs of n spaces, made once each: most cells share a handful of paddings."""

    def __missing__(self, count: int) -> Segment:
        self[count] = made = Segment(" " * count)
        return made


_SPACES = _Spaces()


class Grid:
    """A labelled matrix as a Rich renderable that draws itself line by line.

    A 96 × 96 heatmap is 9,216 cells: as a Rich `Table` (measured, wrapped and cropped
    cell by cell) it took seconds to draw; here every cell is one styled, right-aligned
    segment of its column's width, and a line is made only when it is drawn (`line`), so a
    view pays for the rows on screen. The look is a `box.SIMPLE_HEAD` table: a bold header,
    a rule, one row per line.
    """

    def __init__(self, header: list[Cell], rows: list[list[Cell]]) -> None:
        self.header, self.rows = header, rows
        columns = len(header)
        self.widths = [max([cell_len(header[j][0]), *(cell_len(row[j][0]) for row in rows)]) for j in range(columns)]
        self.width = sum(self.widths) + max(columns - 1, 0)

    def _line(self, cells: list[Cell]) -> list[Segment]:
        segments: list[Segment] = []
        append, gap = segments.append, 0  # the first column has no separator before it
        for (text, style), width in zip(cells, self.widths):
            append(_SPACES[width - cell_len(text) + gap])  # separator and right alignment
            append(Segment(text, style))
            gap = 1
        return segments

    @property
    def line_count(self) -> int:
        return len(self.rows) + 2

    def line(self, index: int) -> list[Segment]:
        """Line `index` (header, rule, then the rows) as segments exactly `width` cells long."""
        if index == 0:
            return self._line(self.header)
        if index == 1:
            return [Segment("─" * self.width, RULE_STYLE)]
        return self._line(self.rows[index - 2])

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for index in range(self.line_count):
            yield from self.line(index)
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


def _cell(value: Text | str, style: Style | None = BOLD) -> Cell:
    """A Text (its plain text and base style) or a string (in `style`) as a cell."""
    if isinstance(value, Text):
        base = value.style
        return value.plain, Style.parse(base) if isinstance(base, str) else base
    return value, style


def matrix_table(
    values: torch.Tensor,
    *,
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
    corner: str = "",
    hidden: torch.Tensor | None = None,
    heat: bool = False,
    digits: int = 2,
    extra: dict[str, Sequence[Text | str]] | None = None,
) -> Grid:
    """A table of `values` (rows × cols); `extra` adds named columns (e.g. row sums) on the right."""
    count_rows, count_cols = values.shape
    header = [(corner, BOLD), *((cols[j] if cols else str(j), BOLD) for j in range(count_cols))]
    header += [(name, BOLD) for name in extra or {}]
    data = values.tolist()
    masked = hidden.tolist() if hidden is not None else [[False] * count_cols] * count_rows
    body: list[list[Cell]] = []
    for i, row in enumerate(data):
        cells: list[Cell] = [(rows[i] if rows else str(i), BOLD)]
        for value, hide in zip(row, masked[i]):
            if hide:
                cells.append((MASKED_GLYPH, MASKED_STYLE) if value == 0 or math.isinf(value)
                             else (number(value, digits), LEAK_STYLE))
            else:
                cells.append((number(value, digits), heat_style(value) if heat else PLAIN))
        cells += [_cell(column[i]) for column in (extra or {}).values()]
        body.append(cells)
    return Grid(header, body)
