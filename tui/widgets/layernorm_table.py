"""LayerNormTable: per position, mean, variance, standardized values and gamma·x̂ + beta."""

from __future__ import annotations

import torch
from rich.console import Group, RenderableType
from rich.text import Text
from textual.reactive import reactive

from ..grid import matrix_table
from ..tensors import LAYERNORM_FEATURES, LayerNormInput, layernorm_view
from .wide_table import WideTable


class LayerNormTable(WideTable):
    """The course's LayerNorm demo, on a recorded input; `batch` picks the sample."""

    batch: reactive[int] = reactive(0)
    """Which sample of the batch to show."""

    def __init__(self, given: LayerNormInput, **options: object) -> None:
        super().__init__(**options)
        self.given = given

    def on_mount(self) -> None:
        self.show(*self.draw())

    def watch_batch(self) -> None:
        if self.is_mounted:
            self.show(*self.draw())

    def draw(self) -> tuple[RenderableType, RenderableType]:
        rows, _ = layernorm_view(self.given, self.batch)
        features = rows.standardized.shape[-1]
        shown = min(features, LAYERNORM_FEATURES)
        table = torch.cat([rows.mean[:, None], rows.var[:, None], rows.standardized[:, :shown], rows.output[:, :shown]], dim=1)
        cols = ["mean μ", "var v"] + [f"x̂{j}" for j in range(shown)] + [f"y{j}" for j in range(shown)]
        parts: list[RenderableType] = [
            Text.assemble(("LayerNorm ", "bold magenta"), self.given.where, f"   eps={rows.eps:g}, d={features}"),
            Text("μ = mean of the d features; v = mean of (x - μ)² (divisor d); x̂ = (x - μ)/√(v + eps); y = γ·x̂ + β",
                 style="dim"),
        ]
        parts += [Text(note, style="italic yellow") for note in rows.notes]
        if features > shown:
            parts.append(Text(f"features 0–{shown - 1} of {features} shown", style="italic yellow"))
        for name, value in (("γ", rows.gamma), ("β", rows.beta)):
            if value is None:
                parts.append(Text(f"{name}: none (identity)", style="dim"))
            else:
                flat = value.reshape(-1).tolist()
                parts.append(Text(f"{name}: " + " ".join(f"{v:.3f}" for v in flat[:12]) + (" …" if len(flat) > 12 else "")))
        return Group(*parts), matrix_table(table, rows=[f"t{i}" for i in range(table.shape[0])], cols=cols,
                                           corner="pos", digits=3)
