"""ValueTable: a kept tensor's numbers, the last two dims, leading dims picked by keys; headed by axis names."""

from __future__ import annotations

import torch
from rich.console import Group, RenderableType
from rich.text import Text
from textual.reactive import reactive

from ..grid import matrix_table
from ..tensors import value_table
from .wide_table import WideTable


class ValueTable(WideTable):
    """`tensor` sliced at (`batch`, `head`) on its leading dims."""

    batch: reactive[int] = reactive(0)
    """Index along the first leading dim."""
    head: reactive[int] = reactive(0)
    """Index along the second leading dim."""

    def __init__(self, tensor: torch.Tensor, title: str, names: list[str] | None = None, **options: object) -> None:
        super().__init__(**options)
        self.tensor, self.caption, self.names = tensor, title, names
        self.leading: tuple[int, ...] = ()

    def on_mount(self) -> None:
        self._redraw(mounted=True)

    def watch_batch(self) -> None:
        self._redraw()

    def watch_head(self) -> None:
        self._redraw()

    def _redraw(self, mounted: bool = False) -> None:
        if mounted or self.is_mounted:
            self.show(*self.draw())

    def draw(self) -> tuple[RenderableType, RenderableType]:
        data = value_table(self.tensor, self.batch, self.head, self.names)
        self.leading = data.leading
        parts: list[RenderableType] = [Text.assemble((self.caption, "bold magenta"), f"   {' · '.join(data.picks)}")]
        parts += [Text(note, style="italic yellow") for note in data.notes]
        assert data.values is not None
        corner = f"{data.row_label}\\{data.col_label}" if data.row_label else data.col_label
        return Group(*parts), matrix_table(data.values, corner=corner, digits=0)
