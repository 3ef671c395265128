"""TensorScreen: the numbers behind one op: attention heatmap, LayerNorm rows, or raw values.

Which views exist depends on the op (a member of an attention block, a LayerNorm, a kept
output); `v` cycles through them. The batch item and head are the screen's state, bound
into whichever view is showing.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ..session import Session
from ..tensors import LayerNormInput, attention_table, layernorm_input, value_table
from ..widgets.heatmap import Heatmap
from ..widgets.key_bar import KeyBar
from ..widgets.layernorm_table import LayerNormTable
from ..widgets.value_table import ValueTable
from .help import HelpScreen

INTRO = (
    "The numbers behind the current op. The attention heatmap shows one batch item and head: rows are "
    "queries, columns keys, each row's sum on the right (a softmax over the wrong axis shows as rows that "
    "do not sum to 1); masked keys are drawn ░░░░, a masked key that still carries weight in red. The "
    "LayerNorm view recomputes each position's mean and variance from the recorded input; the values "
    "view shows the last two axes of the output, headed by their names. b/B and h/H pick the item and "
    "head (the first two other axes), ←/→ scroll a wide table."
)
VIEW_NAMES = {"weights": "attention weights", "layernorm": "LayerNorm per position", "values": "values"}


def available_views(session: Session, index: int) -> tuple[list[str], list[str]]:
    """The views op `index` has, and why the others are missing."""
    views, reasons = [], []
    if index in session.block_of:
        views.append("weights")
    found = layernorm_input(session, index)
    if isinstance(found, LayerNormInput):
        views.append("layernorm")
    elif "not kept" in found:
        reasons.append(found)
    event = session.events[index] if session.events else None
    if event is not None and event.outputs and event.outputs[0].vid in session.recording.values:
        views.append("values")
    elif event is not None and event.outputs:
        reasons.append("the output's values were not kept (too large for the value budget, or the meta device)")
    return views, reasons


class TensorScreen(Screen):
    """One op's tensors; Escape goes back to the debugger."""

    BINDINGS = [
        Binding("b", "batch(1)", "batch", tooltip="next batch item (first leading dim)"),
        Binding("B", "batch(-1)", "batch", tooltip="previous batch item"),
        Binding("h", "head(1)", "head", tooltip="next head (second leading dim)"),
        Binding("H", "head(-1)", "head", tooltip="previous head"),
        Binding("left", "pan(-8)", "pan", tooltip="scroll a wide table to the left", priority=True),
        Binding("right", "pan(8)", "pan", tooltip="scroll a wide table to the right", priority=True),
        Binding("v", "cycle", "next view", tooltip="next view of this op (heatmap / LayerNorm / values)"),
        Binding("question_mark", "help", "help", tooltip="this help"),
        Binding("escape,q", "close", "back", tooltip="back to the op list"),
    ]

    batch: reactive[int] = reactive(0, repaint=False)
    """Chosen index on the first leading dim."""
    head: reactive[int] = reactive(0, repaint=False)
    """Chosen index on the second leading dim."""

    def __init__(self, session: Session, index: int, views: list[str]) -> None:
        super().__init__()
        self.session, self.index, self.views = session, index, views
        self.view = views[0]
        self.limits: tuple[int, ...] = ()

    def compose(self) -> ComposeResult:
        yield Static(id="tensor-title")
        yield VerticalScroll(id="tensor-body")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        self._show()

    def _make(self) -> Widget:
        """The widget for `self.view`, with the limits of its batch/head keys."""
        session, event = self.session, self.session.events[self.index]
        if self.view == "weights":
            block = session.block_of[self.index]
            self.limits = attention_table(session, block, 0, 0).leading
            return Heatmap(session, block, id="heatmap")
        if self.view == "layernorm":
            given = layernorm_input(session, self.index)
            assert isinstance(given, LayerNormInput)
            self.limits = (given.x.shape[0],) if given.x.dim() - given.features >= 2 else ()
            return LayerNormTable(given, id="layernorm")
        tensor = session.recording.values[event.outputs[0].vid]
        names = [name for name, _ in session.analysis.named_axes(event.outputs[0])]
        self.limits = value_table(tensor, 0, 0, names).leading
        title = f"out[0] of #{event.index} {event.op}: {session.analysis.describe(event.outputs[0])}"
        return ValueTable(tensor, title, names, id="values")

    def _show(self) -> None:
        body = self.query_one("#tensor-body", VerticalScroll)
        body.remove_children()
        self.batch = self.head = 0
        body.mount(self._make())
        event = self.session.events[self.index]
        others = [VIEW_NAMES[v] for v in self.views if v != self.view]
        more = f"   (v: {', '.join(others)})" if others else ""
        self.query_one("#tensor-title", Static).update(
            f" {VIEW_NAMES[self.view]} · op #{event.index} {event.op} in {event.module or '(model)'}{more}")

    def watch_batch(self, batch: int) -> None:
        for view in self.query("#heatmap, #layernorm, #values"):
            view.batch = batch  # type: ignore[attr-defined]

    def watch_head(self, head: int) -> None:
        for view in self.query("#heatmap, #values"):
            view.head = head  # type: ignore[attr-defined]

    def _move(self, dim: int, step: int, name: str) -> int | None:
        if len(self.limits) <= dim or self.limits[dim] <= 1:
            self.notify(f"this view has no {name} axis to step through", timeout=2)
            return None
        current = self.batch if dim == 0 else self.head
        return (current + step) % self.limits[dim]

    def action_batch(self, step: int) -> None:
        moved = self._move(0, step, "batch")
        if moved is not None:
            self.batch = moved

    def action_head(self, step: int) -> None:
        moved = self._move(1, step, "head")
        if moved is not None:
            self.head = moved

    def action_pan(self, columns: int) -> None:
        for scroll in self.query(".wide-scroll"):
            scroll.scroll_relative(x=columns, animate=False)

    def action_cycle(self) -> None:
        if len(self.views) > 1:
            self.view = self.views[(self.views.index(self.view) + 1) % len(self.views)]
            self._show()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen("attnscope: the numbers behind one op", INTRO, [("Keys", self.BINDINGS)]))

    def action_close(self) -> None:
        self.app.pop_screen()
