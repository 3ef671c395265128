"""Matrices as Rich tables: labelled rows and columns, optional heat colours and masked cells.

The heatmap, the LayerNorm table, the value view and the demo all draw small matrices; one
function keeps their look (and the meaning of a colour) the same everywhere. A masked cell
must never be mistaken for a small weight, so it gets its own glyph and colour, and a
masked cell that still carries weight (a leak) is drawn loudest of all.
"""

from __future__ import annotations

import math
from typing import Sequence

import torch
from rich import box
from rich.style import Style
from rich.table import Table
from rich.text import Text

MASKED_GLYPH = "░░░░"
MASKED_STYLE = Style(color="rgb(200,60,60)", bgcolor="rgb(45,10,10)")
LEAK_STYLE = Style(color="white", bgcolor="rgb(200,0,0)", bold=True)
LOW, HIGH = (18, 28, 58), (250, 205, 60)


def heat_style(value: float) -> Style:
    """Dark blue for 0, bright yellow for 1: the weight's size at a glance."""
    if math.isnan(value):
        return Style(color="white", bgcolor="magenta", bold=True)
    share = min(max(value, 0.0), 1.0) ** 0.6
    red, green, blue = (round(low + (high - low) * share) for low, high in zip(LOW, HIGH))
    return Style(color="black" if share > 0.55 else "rgb(220,220,220)", bgcolor=f"rgb({red},{green},{blue})")


def number(value: float, digits: int = 2) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    if digits == 0:
        return f"{value:.3g}"
    return f"{value:.{digits}f}"


def legend() -> Text:
    return Text.assemble(
        (" 0.00 ", heat_style(0.0)), " small weight  ", (" 1.00 ", heat_style(1.0)), " large  ",
        (MASKED_GLYPH, MASKED_STYLE), " masked key (weight 0)  ", (" 0.12 ", LEAK_STYLE), " masked but weighted",
    )


def matrix_table(
    values: torch.Tensor,
    *,
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
    corner: str = "",
    hidden: torch.Tensor | None = None,
    heat: bool = False,
    digits: int = 2,
    extra: dict[str, Sequence[str]] | None = None,
    title: str | None = None,
) -> Table:
    """A table of `values` (rows × cols); `extra` adds named columns (e.g. row sums) on the right."""
    count_rows, count_cols = values.shape
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, show_edge=False,
                  title=title, title_justify="left", collapse_padding=True)
    table.add_column(corner, style="bold", justify="right", no_wrap=True)
    for j in range(count_cols):
        table.add_column(cols[j] if cols else str(j), justify="right", no_wrap=True)
    for name in extra or {}:
        table.add_column(name, justify="right", style="bold", no_wrap=True)
    data = values.tolist()
    masked = hidden.tolist() if hidden is not None else None
    for i in range(count_rows):
        cells: list[Text | str] = [rows[i] if rows else str(i)]
        for j in range(count_cols):
            value = data[i][j]
            if masked is not None and masked[i][j]:
                cells.append(Text(MASKED_GLYPH, MASKED_STYLE) if value == 0 or math.isinf(value)
                             else Text(number(value, digits), LEAK_STYLE))
            elif heat:
                cells.append(Text(number(value, digits), heat_style(value)))
            else:
                cells.append(number(value, digits))
        cells += [column[i] for column in (extra or {}).values()]
        table.add_row(*cells)
    return table
