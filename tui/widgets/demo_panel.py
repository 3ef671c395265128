"""DemoPanel: one band of the course demo: the inputs, the attention steps, or LayerNorm.

A band is a row of small matrices that wraps onto more lines when the terminal is narrow
(Rich `Columns`), so T = 8 and d_k = 8 fit at 80 columns without cutting a matrix. All
bands are bound to the screen's one `result`; changing a setting recomputes once and every
band follows.
"""

from __future__ import annotations

import torch
from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from ..demo_math import DemoResult
from ..grid import matrix_table

LAYERNORM_RULE = "μ = (1/d) Σ x;  v = (1/d) Σ (x - μ)² (divisor d);  x̂ = (x - μ)/√(v + 1e-5);  y = γ ⊙ x̂ + β"


def _panel(title: str, body: RenderableType, accent: bool = False) -> Panel:
    return Panel(body, title=title, title_align="left", box=box.ROUNDED, expand=False,
                 border_style="yellow" if accent else "blue", padding=(0, 1))


class DemoPanel(Static):
    """Draws `band` ("inputs", "attention" or "layernorm") of the bound `result`."""

    result: reactive[DemoResult | None] = reactive(None)
    """The demo's numbers, set by the screen."""

    def __init__(self, band: str, **options: object) -> None:
        super().__init__("", **options)
        self.band = band

    def watch_result(self, result: DemoResult | None) -> None:
        if result is not None:
            self.update(Columns(self.panels(result), padding=(0, 1)))

    def panels(self, result: DemoResult) -> list[Panel]:
        length, width = result.q.shape
        queries, keys = [f"q{i}" for i in range(length)], [f"k{j}" for j in range(length)]
        features = [str(j) for j in range(width)]
        if self.band == "inputs":
            return [_panel("Q (T × d_k)", matrix_table(result.q.double(), rows=queries, cols=features)),
                    _panel("K (T × d_k)", matrix_table(result.k.double(), rows=keys, cols=features)),
                    _panel("V (T × d_v)", matrix_table(result.v.double(), rows=keys, cols=features))]
        if self.band == "attention":
            sums = [f"{s:.3f}" for s in result.weights.sum(dim=-1).tolist()]
            return [
                _panel("scores QKᵀ/√d_k + M", matrix_table(result.scores.double(), rows=queries, cols=keys)),
                _panel("weights: softmax over keys", matrix_table(
                    result.weights.double(), rows=queries, cols=keys, hidden=result.hidden, heat=True,
                    extra={"Σ": sums}), accent=True),
                _panel("output C = weights · V", matrix_table(result.output.double(), rows=queries, cols=features)),
            ]
        positions = [f"t{i}" for i in range(length)]
        stats = torch.cat([result.x, result.mean[:, None], result.var[:, None]], dim=1).double()
        return [
            _panel("x = C + V, with μ and v", matrix_table(stats, rows=positions, cols=features + ["μ", "v"])),
            _panel("x̂ = (x - μ)/√(v + eps)", matrix_table(result.standardized.double(), rows=positions, cols=features)),
            _panel("y = γ ⊙ x̂ + β", Group(
                matrix_table(result.normalized.double(), rows=positions, cols=features),
                Text("γ " + " ".join(f"{g:.2f}" for g in result.gamma.tolist())),
                Text("β " + " ".join(f"{b:.2f}" for b in result.beta.tolist())))),
        ]
