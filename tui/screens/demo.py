"""DemoScreen: the course's interactive page in the terminal (COURSE.md, "The interactive demo").

Random Q, K, V from a seed; the scaled scores with the mask M; the row-wise softmax
weights (masked cells drawn as masked, row sums shown); the output; and LayerNorm position
by position. Keys change the mask, T, d_k and the seed; every number is recomputed by
`demo_math` from the formulas.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from ..demo_math import DemoResult, DemoSettings, compute
from ..grid import legend
from ..widgets.demo_panel import LAYERNORM_RULE, DemoPanel
from ..widgets.key_bar import KeyBar
from .help import HelpScreen

INTRO = (
    "The course's attention page: random Q, K and V from a seed, the scaled scores with the mask M, "
    "the weights softmax normalizes row by row (one query's weights over the keys sum to 1; masked keys "
    "drawn ░░░░, never as a small weight), the output, and LayerNorm position by position. Every number "
    "is recomputed from the formulas when a key changes the mask, T, d_k or the seed."
)
FORMULA = "C = softmax(Q Kᵀ / √d_k + M) V   M = -inf where a key is hidden, 0 elsewhere; softmax over keys, row by row"


class DemoScreen(Screen):
    """The demo page; `settings` is the state, `result` its numbers, bound into every panel."""

    BINDINGS = [
        Binding("c", "toggle('causal')", "causal", tooltip="toggle the causal mask (query i reads keys j <= i)"),
        Binding("p", "toggle('padding')", "padding", tooltip="toggle a key padding mask (the last keys are padding)"),
        Binding("t", "change('length', 1)", "T", tooltip="one more token (T + 1, up to 8)"),
        Binding("T", "change('length', -1)", "T", tooltip="one token less (T - 1, down to 2)"),
        Binding("d", "change('d_k', 1)", "d_k", tooltip="wider queries and keys (d_k + 1, up to 8)"),
        Binding("D", "change('d_k', -1)", "d_k", tooltip="narrower queries and keys (d_k - 1, down to 1)"),
        Binding("s", "change('seed', 1)", "re-seed", tooltip="new random Q, K, V, gamma, beta (seed + 1)"),
        Binding("S", "change('seed', -1)", "re-seed", tooltip="previous seed"),
        Binding("question_mark", "help", "help", tooltip="this help"),
        Binding("q", "app.quit", "quit", tooltip="quit"),
    ]

    settings: reactive[DemoSettings] = reactive(DemoSettings)
    """Seed, T, d_k and the two masks."""
    result: reactive[DemoResult | None] = reactive(None)
    """The numbers for `settings`."""

    def __init__(self, settings: DemoSettings | None = None) -> None:
        super().__init__()
        self.set_reactive(DemoScreen.settings, settings or DemoSettings())

    def compose(self) -> ComposeResult:
        yield Static(id="demo-settings")
        with VerticalScroll(id="demo-body"):
            yield Static(FORMULA, id="demo-formula")
            yield DemoPanel("inputs", id="demo-inputs").data_bind(DemoScreen.result)
            yield DemoPanel("attention", id="demo-attention").data_bind(DemoScreen.result)
            yield Static(legend(), id="demo-legend")
            yield Static(LAYERNORM_RULE, id="demo-layernorm-rule")
            yield DemoPanel("layernorm", id="demo-layernorm").data_bind(DemoScreen.result)
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self.watch_settings(self.settings)

    def watch_settings(self, settings: DemoSettings) -> None:
        self.result = compute(settings)
        padded = settings.padded_keys()
        padding = f"on (last {padded} key{'s' if padded > 1 else ''})" if padded else "off"
        for line in self.query("#demo-settings").results(Static):
            line.update(f" attention demo · seed {settings.seed} · T={settings.length} · d_k={settings.d_k} · "
                        f"causal {'on' if settings.causal else 'off'} · padding {padding}")

    def action_toggle(self, name: str) -> None:
        self.settings = self.settings.changed(**{name: not getattr(self.settings, name)})

    def action_change(self, name: str, step: int) -> None:
        self.settings = self.settings.changed(**{name: getattr(self.settings, name) + step})

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("attnscope demo", INTRO, [("Keys", self.BINDINGS)]))
